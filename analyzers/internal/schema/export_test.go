package schema

// FactString renders the package fact a Schema was built from, as it is
// exported, for the probe's "fact" verb; "" when there is none.
func FactString(s *Schema) string {
	if s == nil || s.facts == nil || s.facts.empty() {
		return ""
	}
	return s.facts.fact().String()
}

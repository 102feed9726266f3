package ops

// GeneratedFacts returns the Fact of every registered library that has
// one: the concrete types a Summary's Generated field holds.
func GeneratedFacts() []GeneratedFact {
	var out []GeneratedFact
	for _, l := range libraries {
		if l.Fact != nil {
			out = append(out, l.Fact)
		}
	}
	return out
}

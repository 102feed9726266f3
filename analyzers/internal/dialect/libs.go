package dialect

// Libs returns the library families that have a dialect, for the layering
// test: no analyzer may name one.
func Libs() []string {
	var out []string
	for _, d := range all {
		out = append(out, d.Lib)
	}
	return out
}

package sqltext

import (
	"sort"
	"testing"
)

// BenchmarkParse parses the realistic statement set; stmts/s is the
// throughput reported in doc.go.
func BenchmarkParse(b *testing.B) {
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		for _, tc := range realisticStatements {
			Parse(tc.sql)
			n++
		}
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "stmts/s")
}

// BenchmarkParseCondition parses the WHERE fragments.
func BenchmarkParseCondition(b *testing.B) {
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		for _, tc := range conditionCases {
			ParseCondition(tc.fragment)
			n++
		}
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "fragments/s")
}

// TestUnderstoodShare measures the share of the realistic statement set
// that is understood (Understood(): kind known, no unknown part), overall
// and per source; doc.go reports it. The named unknown cases count
// against the share.
func TestUnderstoodShare(t *testing.T) {
	type tally struct{ understood, kindKnown, total int }
	bySource := map[string]*tally{}
	var all tally
	for _, tc := range realisticStatements {
		st := Parse(tc.sql)
		s := bySource[tc.source]
		if s == nil {
			s = &tally{}
			bySource[tc.source] = s
		}
		for _, x := range []*tally{s, &all} {
			x.total++
			if st.Understood() {
				x.understood++
			}
			if st.Kind != KindUnknown {
				x.kindKnown++
			}
		}
	}
	sources := make([]string, 0, len(bySource))
	for s := range bySource {
		sources = append(sources, s)
	}
	sort.Strings(sources)
	for _, s := range sources {
		x := bySource[s]
		t.Logf("%-10s %3d/%3d understood", s, x.understood, x.total)
	}
	t.Logf("all: %d statements, %d understood (%.1f%%), kind known for %d (%.1f%%)",
		all.total, all.understood, 100*float64(all.understood)/float64(all.total),
		all.kindKnown, 100*float64(all.kindKnown)/float64(all.total))
}

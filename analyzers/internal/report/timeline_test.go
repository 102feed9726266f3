package report_test

import (
	"go/token"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/analyzers/internal/report"
)

// Positions of a synthetic finding: the finding itself and its evidence.
const (
	atFinding token.Pos = 100
	ev0       token.Pos = 10
	ev1       token.Pos = 20
)

// synthetic is a diagnostic as Report makes it: the headline, the detail
// first in the related information at the finding's range, then the
// evidence.
func synthetic(category string, evidence ...token.Pos) analysis.Diagnostic {
	d := analysis.Diagnostic{Pos: atFinding, End: atFinding + 5, Category: category, Message: "headline"}
	d.Related = append(d.Related, analysis.RelatedInformation{Pos: d.Pos, End: d.End, Message: "the detail"})
	for _, p := range evidence {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: p, Message: "evidence"})
	}
	return d
}

func positions(t report.Timeline) []token.Pos {
	var out []token.Pos
	for _, s := range t.Steps {
		out = append(out, s.Pos)
	}
	return out
}

func actors(t report.Timeline) []int {
	var out []int
	for _, s := range t.Steps {
		out = append(out, s.Actor)
	}
	return out
}

// TestInterleavingPositions: each category's steps run at the positions
// its evidence order gives them (the detail is never evidence), and the
// two actors alternate as the race needs.
func TestInterleavingPositions(t *testing.T) {
	for _, tc := range []struct {
		category string
		evidence []token.Pos
		want     []token.Pos
		actors   []int
	}{
		{"checkinsert/race", []token.Pos{ev0}, []token.Pos{ev0, ev0, atFinding, atFinding}, []int{0, 1, 0, 1}},
		{"checkinsert/effect-before-claim", []token.Pos{ev0, ev1}, []token.Pos{ev0, ev0, atFinding, atFinding, ev1, ev1}, []int{0, 1, 0, 1, 0, 1}},
		{"checkinsert/firstorcreate", nil, []token.Pos{atFinding, atFinding, atFinding, atFinding}, []int{0, 1, 0, 1}},
		{"lostupdate/writeback", []token.Pos{ev0}, []token.Pos{ev0, ev0, atFinding, atFinding}, []int{0, 1, 0, 1}},
		// Another writer named: it changes the row between the read and
		// the whole-row write.
		{"lostupdate/writeback", []token.Pos{ev0, ev1}, []token.Pos{ev0, ev1, atFinding}, []int{0, 1, 0}},
		{"lostupdate/writeback", []token.Pos{ev0, ev1, 30}, []token.Pos{ev0, ev1, atFinding}, []int{0, 1, 0}},
		{"lockacrosscall/call", []token.Pos{ev0}, []token.Pos{ev0, atFinding, ev0, atFinding, ev0}, []int{0, 0, 1, 0, 1}},
		// A helper that locks: the lock is at the call.
		{"lockacrosscall/call", []token.Pos{atFinding}, []token.Pos{atFinding, atFinding, atFinding, atFinding, atFinding}, []int{0, 0, 1, 0, 1}},
		{"noversion/predicate", nil, []token.Pos{token.NoPos, token.NoPos, atFinding}, []int{0, 1, 0}},
		{"noversion/unchecked", nil, []token.Pos{token.NoPos, token.NoPos, atFinding}, []int{0, 1, 0}},
		{"noversion/bypass", nil, []token.Pos{token.NoPos, token.NoPos, atFinding}, []int{0, 1, 0}},
		{"retrypost/nokey", []token.Pos{ev0}, []token.Pos{atFinding, ev0, atFinding}, []int{0, 1, 1}},
		{"retrypost/freshkey", []token.Pos{ev0}, []token.Pos{atFinding, ev0, atFinding}, []int{0, 1, 1}},
		{"retrypost/unknown-effect", []token.Pos{ev0}, []token.Pos{atFinding, ev0, atFinding}, []int{0, 1, 1}},
	} {
		tl, ok := report.Interleaving(synthetic(tc.category, tc.evidence...))
		require.True(t, ok, tc.category)
		assert.Equal(t, tc.want, positions(tl), "%s with %d evidence entries", tc.category, len(tc.evidence))
		assert.Equal(t, tc.actors, actors(tl), tc.category)
		assert.True(t, report.HasTimeline(tc.category))
	}
}

// TestInterleavingWithoutTimeline: a category without a template, and a
// finding without the evidence its template needs, have no timeline.
func TestInterleavingWithoutTimeline(t *testing.T) {
	for _, d := range []analysis.Diagnostic{
		synthetic("checkinsert/unused-ignore"),
		synthetic("ignoredirective/malformed"),
		synthetic("checkinsert/internal-error"),
		synthetic(""),
		synthetic("checkinsert/race"),                     // no lookup
		synthetic("checkinsert/effect-before-claim", ev0), // no insert
		synthetic("retrypost/nokey"),                      // no retry
	} {
		_, ok := report.Interleaving(d)
		assert.False(t, ok, "%s with %d related", d.Category, len(d.Related))
	}
	assert.False(t, report.HasTimeline("checkinsert/unused-ignore"))
}

// TestInterleavingWithoutDetail: a diagnostic reported before the
// headline convention (no detail) has all its related information as
// evidence.
func TestInterleavingWithoutDetail(t *testing.T) {
	d := analysis.Diagnostic{Pos: atFinding, Category: "checkinsert/race", Message: "a long message",
		Related: []analysis.RelatedInformation{{Pos: ev0, Message: "the lookup: the lookup of users by email"}}}
	tl, ok := report.Interleaving(d)
	require.True(t, ok)
	assert.Equal(t, []token.Pos{ev0, ev0, atFinding, atFinding}, positions(tl))
}

// TestTimelineVoice: the templates' words follow the message convention,
// every step says what it does, and both actors take part.
func TestTimelineVoice(t *testing.T) {
	for _, c := range []struct {
		category string
		evidence []token.Pos
	}{
		{"checkinsert/race", []token.Pos{ev0}},
		{"checkinsert/effect-before-claim", []token.Pos{ev0, ev1}},
		{"checkinsert/firstorcreate", nil},
		{"lostupdate/writeback", []token.Pos{ev0}},
		{"lostupdate/writeback", []token.Pos{ev0, ev1}},
		{"lockacrosscall/call", []token.Pos{ev0}},
		{"noversion/predicate", nil},
		{"noversion/unchecked", nil},
		{"noversion/bypass", nil},
		{"retrypost/nokey", []token.Pos{ev0}},
		{"retrypost/freshkey", []token.Pos{ev0}},
		{"retrypost/unknown-effect", []token.Pos{ev0}},
	} {
		tl, ok := report.Interleaving(synthetic(c.category, c.evidence...))
		require.True(t, ok, c.category)
		assert.NoError(t, timelineVoice(tl.Title), c.category)
		assert.NoError(t, timelineVoice(tl.Outcome), c.category)
		seen := map[int]bool{}
		for _, s := range tl.Steps {
			seen[s.Actor] = true
			assert.NoError(t, timelineVoice(s.Does), c.category)
			if s.Sees != "" {
				assert.NoError(t, timelineVoice(s.Sees), c.category)
			}
		}
		assert.Equal(t, map[int]bool{0: true, 1: true}, seen, "%s: both actors act", c.category)
		for _, name := range tl.Actors {
			assert.NotEmpty(t, name, c.category)
		}
	}
}

// timelineVoice is the message convention (report.CheckVoice) for a
// timeline's words, which may start with an actor ("A's change", "B
// waits") or an API's name ("FirstOrCreate inserts").
func timelineVoice(text string) error {
	word, _, _ := strings.Cut(text, " ")
	switch strings.TrimSuffix(word, "'s") {
	case "A", "B", "FirstOrCreate":
		text = "x" + text[1:]
	}
	return report.CheckVoice(text)
}

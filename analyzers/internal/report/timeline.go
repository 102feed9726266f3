package report

import (
	"go/token"

	"golang.org/x/tools/go/analysis"
)

// A Timeline is the interleaving that makes a finding a bug: two callers
// of the same code (or an attempt and its retry, or a lock's holder and a
// writer waiting on it), step by step, at the positions the finding
// names, and what comes of it. The drivers draw it (idemlint -explain,
// SARIF's message.markdown); it is what convinces a sceptical reader that
// the race is real.
type Timeline struct {
	// Title introduces the table: "how two concurrent requests interleave".
	Title string
	// Actors name the two columns: "request A", "request B".
	Actors [2]string
	Steps  []Step
	// Outcome is what the interleaving leaves behind.
	Outcome string
}

// A Step is one thing one actor does.
type Step struct {
	Actor int // 0 or 1, an index into Timeline.Actors
	// Pos is where the step runs: the finding's position or one of its
	// evidence positions. token.NoPos for a step the finding names no
	// position for (another writer's update, which noversion does not
	// locate).
	Pos token.Pos
	// Does is what the actor does there; Sees what comes back ("no row",
	// "version 4"), "" when nothing worth saying does.
	Does, Sees string
}

// Interleaving returns the timeline of d, a finding an analyzer reported
// through Report, built from its category's template and its evidence
// positions. ok is false for a category without a template (a directive
// or configuration error) and for a finding that lacks the evidence its
// template needs.
//
// The evidence is taken by position in the order each analyzer gives it
// (see timelines), never by its wording. A diagnostic without a detail
// (one reported before the headline convention) has all its related
// information as evidence, which Detail returns then.
func Interleaving(d analysis.Diagnostic) (Timeline, bool) {
	_, evidence, _ := Detail(d)
	for _, t := range timelines[d.Category] {
		if t.needs() > len(evidence) {
			continue
		}
		out := Timeline{Title: t.title, Actors: t.actors, Outcome: t.outcome}
		for _, s := range t.steps {
			pos := token.NoPos
			switch {
			case s.at == atFinding:
				pos = d.Pos
			case s.at >= 0:
				pos = evidence[s.at].Pos
			}
			out.Steps = append(out.Steps, Step{Actor: s.actor, Pos: pos, Does: s.does, Sees: s.sees})
		}
		return out, true
	}
	return Timeline{}, false
}

// HasTimeline reports whether category has a timeline template, for the
// test that every reported sub-rule has one.
func HasTimeline(category string) bool { return len(timelines[category]) > 0 }

// Where a template step runs: the finding's own position, an index into
// the finding's evidence (0 is the first evidence entry after the
// detail), or nowhere the finding names.
const (
	atFinding   = -1
	atElsewhere = -2
)

type template struct {
	title   string
	actors  [2]string
	steps   []templateStep
	outcome string
}

type templateStep struct {
	actor      int
	at         int
	does, sees string
}

// needs is the number of evidence entries t refers to.
func (t template) needs() int {
	n := 0
	for _, s := range t.steps {
		n = max(n, s.at+1)
	}
	return n
}

// Actors and titles the templates share.
var (
	twoRequests = [2]string{"request A", "request B"}
	twoAttempts = [2]string{"attempt 1", "attempt 2"}
	concurrent  = "how two concurrent requests interleave"
	retried     = "how the retry repeats it"
)

const (
	actorA = 0
	actorB = 1
)

// timelines holds, per category, the templates of its interleaving, the
// most specific first: Interleaving takes the first whose evidence the
// finding has. The evidence order each relies on is the analyzer's:
//
//	checkinsert/race                 [lookup]; the finding is the insert
//	checkinsert/effect-before-claim  [lookup, insert]; the finding is the effect
//	checkinsert/firstorcreate        []; the finding looks up and inserts
//	lostupdate/writeback             [read, other writers...]; the finding is the write
//	lockacrosscall/call              [lock]; the finding is the network call
//	noversion/*                      []; the finding is the UPDATE
//	retrypost/*                      [retry]; the finding is the request
//
// The wording is generic: a template knows the category, not the table,
// the key or the service, which the headline and the evidence name.
var timelines = map[string][]template{
	"checkinsert/race": {{
		title:  concurrent,
		actors: twoRequests,
		steps: []templateStep{
			{actorA, 0, "look up the key", "no row"},
			{actorB, 0, "look up the key", "no row: A has not inserted yet"},
			{actorA, atFinding, "insert the row", "inserted"},
			{actorB, atFinding, "insert the row", "a second row, or a unique violation"},
		},
		outcome: "two rows for one key, or B gets a unique violation instead of the row A inserted",
	}},
	"checkinsert/effect-before-claim": {{
		title:  concurrent,
		actors: twoRequests,
		steps: []templateStep{
			{actorA, 0, "look up the key", "no row"},
			{actorB, 0, "look up the key", "no row: A has not inserted yet"},
			{actorA, atFinding, "call the other service", "done"},
			{actorB, atFinding, "call the other service", "done a second time"},
			{actorA, 1, "insert the row", "inserted"},
			{actorB, 1, "insert the row", "a second row, or a unique violation"},
		},
		outcome: "the other service acts twice for one key (a payment or a message sent twice), whatever the insert does",
	}},
	"checkinsert/firstorcreate": {{
		title:  concurrent,
		actors: twoRequests,
		steps: []templateStep{
			{actorA, atFinding, "FirstOrCreate looks the key up", "no row"},
			{actorB, atFinding, "FirstOrCreate looks the key up", "no row: A has not inserted yet"},
			{actorA, atFinding, "FirstOrCreate inserts", "inserted"},
			{actorB, atFinding, "FirstOrCreate inserts", "a second row, or a unique violation"},
		},
		outcome: "two rows for one key, or B's FirstOrCreate fails with a unique violation instead of returning A's row",
	}},
	"lostupdate/writeback": {
		// Another writer named: a whole-row write of a stale copy undoes
		// what it wrote in between.
		{
			title:  concurrent,
			actors: [2]string{"request A", "request B (another writer)"},
			steps: []templateStep{
				{actorA, 0, "read the row", "its columns as they are"},
				{actorB, 1, "change a column of the row", "committed"},
				{actorA, atFinding, "write the whole row back", "B's column as A read it"},
			},
			outcome: "B's change is undone, and neither request gets an error",
		},
		{
			title:  concurrent,
			actors: twoRequests,
			steps: []templateStep{
				{actorA, 0, "read the row", "value v"},
				{actorB, 0, "read the row", "the same v"},
				{actorA, atFinding, "write back v changed by A", "saved"},
				{actorB, atFinding, "write back v changed by B", "saved over A's write"},
			},
			outcome: "A's update is lost: the row holds v with B's change alone",
		},
	},
	"lockacrosscall/call": {{
		title:  "how the lock holds up another writer",
		actors: [2]string{"transaction A", "request B (a writer of the rows)"},
		steps: []templateStep{
			{actorA, 0, "lock the rows", "held until A commits"},
			{actorA, atFinding, "call the other service", "waits for its response"},
			{actorB, 0, "lock or write the same rows", "waits for A"},
			{actorA, atFinding, "the call returns, or times out", "A commits: the lock is released"},
			{actorB, 0, "lock or write the same rows", "goes on, as late as the other service was slow"},
		},
		outcome: "every writer of the rows waits as long as the other service takes; under load the connection pool drains",
	}},
	"noversion/predicate": {{
		title:  concurrent,
		actors: [2]string{"request A", "request B (another writer)"},
		steps: []templateStep{
			{actorA, atElsewhere, "read the row", "version 3"},
			{actorB, atElsewhere, "update it WHERE version = 3, bump the version", "1 row, version 4"},
			{actorA, atFinding, "UPDATE by key alone", "1 row: B's change overwritten"},
		},
		outcome: "B's change is lost without a conflict, though the table is versioned",
	}},
	"noversion/unchecked": {{
		title:  concurrent,
		actors: [2]string{"request A", "request B (another writer)"},
		steps: []templateStep{
			{actorA, atElsewhere, "read the row", "version 3"},
			{actorB, atElsewhere, "update it WHERE version = 3, bump the version", "1 row, version 4"},
			{actorA, atFinding, "UPDATE ... WHERE version = 3", "0 rows, a count nobody reads"},
		},
		outcome: "A's change is lost and A reports success",
	}},
	"noversion/bypass": {{
		title:  concurrent,
		actors: [2]string{"request A", "request B (another writer)"},
		steps: []templateStep{
			{actorA, atElsewhere, "read the row", "version 3"},
			{actorB, atElsewhere, "update it through the plugin", "1 row, version 4"},
			{actorA, atFinding, "update the plugin does not guard", "1 row: no version compared, none bumped"},
		},
		outcome: "B's change is overwritten without a conflict, and writers that read version 4 miss A's change too",
	}},
	"retrypost/nokey": {{
		title:  retried,
		actors: twoAttempts,
		steps: []templateStep{
			{actorA, atFinding, "send the request, without a key", "the server creates it; the response times out"},
			{actorB, 0, "retry after the failure", ""},
			{actorB, atFinding, "send the request again, without a key", "the server creates it again"},
		},
		outcome: "one operation creates two things on the server (two orders, charges or transfers)",
	}},
	"retrypost/freshkey": {{
		title:  retried,
		actors: twoAttempts,
		steps: []templateStep{
			{actorA, atFinding, "send the request with a new key k1", "the server creates it; the response times out"},
			{actorB, 0, "retry after the failure", ""},
			{actorB, atFinding, "send the request with a new key k2", "a key the server has not seen: created again"},
		},
		outcome: "the server sees two keys and creates the thing twice: the key protects nothing",
	}},
	"retrypost/unknown-effect": {{
		title:  retried,
		actors: twoAttempts,
		steps: []templateStep{
			{actorA, atFinding, "send the request, without a key", "the server acts on it; the response times out"},
			{actorB, 0, "retry after the failure", ""},
			{actorB, atFinding, "send the request again, without a key", "the server acts on it again"},
		},
		outcome: "if the request creates anything it is created twice; only the server knows whether it does",
	}},
}

package sqltext

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// conditionCases are WHERE fragments as GORM's Where/Not/Or and bun's
// Where/WhereOr take them. want is describeCondition's rendering; a
// trailing "?" marks the named unknown cases.
var conditionCases = []struct{ fragment, want string }{
	{"id = ?", "id = ?1"},
	{"id = ? AND version = ?", "id = ?1, version = ?2"},
	{"email = @email", "email = @email"},
	{"email = @email AND org_id = @org", "email = @email, org_id = @org"},
	{"name LIKE ?", "name like ?1"},
	{"created_at > ?", "created_at > ?1"},
	{"deleted_at IS NULL", "deleted_at is null"},
	{"deleted_at IS NOT NULL", "deleted_at is not null"},
	{"id IN ?", "id in ?1"},
	{"id IN (?)", "id in ?1"},
	{"id NOT IN ?", "id not in ?1"},
	{"name = ? OR name = ?", "~name = ?1, ~name = ?2"},
	{"?TableAlias.id = ?", "?TableAlias.id = ?1"},
	{"?TableAlias.deleted_at IS NULL", "?TableAlias.deleted_at is null"},
	{`"users"."id" = ?`, "users.id = ?1"},
	{"users.email = ? AND users.deleted_at IS NULL", "users.email = ?1, users.deleted_at is null"},
	{"status <> ?", "status <> ?1"},
	{"status != ?", "status <> ?1"},
	{"age BETWEEN ? AND ?", "age between ?1,?2"},
	{"version = ?", "version = ?1"},
	{"tenant_id = ? AND (status = ? OR status = ?)", "tenant_id = ?1, ~status = ?2, ~status = ?3"},
	{"NOT deleted", "deleted = lit"},
	{"active", "active = lit"},
	{"id = $1", "id = $1"},
	{"email = :email", "email = :email"},
	{"WHERE id = ?", "id = ?1"},
	{"1 = 1", ""},
	{"id = ANY(?)", "id = any ?1"},
	{"(org_id, email) = (?, ?)", "org_id = ?1, email = ?2"},
	{"created_at >= NOW() - INTERVAL ? DAY", "created_at >= expr"},
	{"amount > ?::numeric", "amount > ?1"},
	{"name ILIKE '%' || ? || '%'", "name ilike expr"},
	{"id = ? -- why", "id = ?1"},
	{"id = ? /* c */ AND v = ?", "id = ?1, v = ?2"},
	{"id IN (SELECT user_id FROM orders WHERE total > ?)", "id in subq"},
	{"email = 'it''s'", "email = lit"},
	{"count > 0 AND count < ?", "count > lit, count < ?1"},
	{"? < count", "count > ?1"},
	{"NOT (status = ?)", "~status = ?1"},
	{"status = ? AND NOT (archived OR hidden)", "status = ?1, ~archived = lit, ~hidden = lit"},
	{"id = ?0", "id = ?0"},
	{"email = ?email", "email = ?email"},
	// Named unknown cases.
	{"", "?"},
	{"? = ?", "?"},
	{"lower(email) = lower(?)", "?"},
	{"id = ? AND", "id = ?1, ?"},
	{"id = ? ORDER BY id", "id = ?1, ?"},
	{"json_extract(data, '$.a') = ?", "?"},
	{"id = ? FOR UPDATE", "id = ?1, ?"},
	{"EXISTS (SELECT 1 FROM orders WHERE orders.user_id = users.id)", "?"},
	{"id = ? AND data ->> 'k' = ?", "id = ?1, ?"},
	{"email = 'unterminated", "email = ??, ?"},
	{"(id = ?", "?"},
}

func TestParseCondition(t *testing.T) {
	for _, tc := range conditionCases {
		c := ParseCondition(tc.fragment)
		require.NotNil(t, c)
		assert.Equal(t, tc.want, describeCondition(c), "fragment: %q", tc.fragment)
	}
}

// exprCases are value fragments: gorm.Expr / clause.Expr text, bun's
// SetColumn and Value expressions. self is the column whose
// self-reference is asked for.
var exprCases = []struct {
	fragment, want, self string
	reads                bool
}{
	{"count + ?", "f(count;?1)", "count", true},
	{"balance - ?", "f(balance;?1)", "balance", true},
	{"COALESCE(count, 0) + ?", "f(count;?1)", "count", true},
	{"count + 1", "f(count)", "count", true},
	{"version + 1", "f(version)", "version", true},
	{`"count" + ?`, "f(count;?1)", "count", true},
	{"users.count + ?", "f(users.count;?1)", "count", true},
	{"GREATEST(balance, ?)", "f(balance;?1)", "balance", true},
	{"CASE WHEN count > ? THEN count - ? ELSE 0 END", "f(count,count;?1,?2)", "count", true},
	{"array_append(tags, ?)", "f(tags;?1)", "tags", true},
	{"jsonb_set(data, '{a}', ?)", "f(data;?1)", "data", true},
	{"count || ?", "f(count;?1)", "count", true},
	{"? + count", "f(count;?1)", "count", true},
	{"cnt + @delta", "f(cnt;@delta)", "cnt", true},
	{"$1 + n", "f(n;$1)", "n", true},
	{"COUNT + ?", "f(count;?1)", "Count", true},
	{"?", "?1", "count", false},
	{"$1::int", "$1", "count", false},
	{"NOW()", "f()", "updated_at", false},
	{"EXCLUDED.count", "excl:count", "count", false},
	{"excluded.count + users.count", "f(users.count,excl:count)", "count", true},
	{"VALUES(count)", "excl:count", "count", false},
	{"count + VALUES(count)", "f(count,excl:count)", "count", true},
	{"other + ?", "f(other;?1)", "count", false},
	{"'literal'", "lit", "count", false},
	{"-1", "lit", "count", false},
	{"NULL", "null", "count", false},
	{"DEFAULT", "default", "count", false},
	{"(SELECT max(n) FROM t) + 1", "f()", "n", false},
	{"(SELECT count FROM t WHERE id = ?)", "subq", "count", false},
	// Named unknown cases.
	{"", "??", "count", false},
	{"count + ? AND", "??", "count", false},
	{"count +", "??", "count", false},
	{"count + ? , x", "??", "count", false},
	{"count # 1", "??", "count", false},
}

func TestParseExpr(t *testing.T) {
	for _, tc := range exprCases {
		e := ParseExpr(tc.fragment)
		require.NotNil(t, e)
		assert.Equal(t, tc.want, describeExpr(*e), "fragment: %q", tc.fragment)
		assert.Equal(t, tc.reads, e.ReadsColumn(tc.self), "ReadsColumn(%q) of %q", tc.self, tc.fragment)
	}
}

// setListCases are SET-list fragments as bun's UpdateQuery.Set and
// InsertQuery.Set take them.
var setListCases = []struct {
	fragment, want string
	unknown        bool
}{
	{"count = count + 1", "count=f(count)!", false},
	{"count = ?", "count=?1", false},
	{"count = EXCLUDED.count", "count=excl:count", false},
	{"a = ?, b = b + ?", "a=?1 b=f(b;?2)!", false},
	{"SET version = version + 1", "version=f(version)!", false},
	{"count = t.count + 1", "count=f(t.count)!", false},
	{"(a, b) = (?, ?)", "a=?1 b=?2", false},
	{`"count" = "count" - ?`, "count=f(count;?1)!", false},
	{"balance = balance + VALUES(balance)", "balance=f(balance,excl:balance)!", false},
	{"updated_at = now(), n = n + 1", "updated_at=f() n=f(n)!", false},
	// Named unknown cases.
	{"count = ", "count=??", true},
	{"count + 1", "", true},
	{"", "", true},
	{"count = ? WHERE id = ?", "count=?1", true},
}

func TestParseSetList(t *testing.T) {
	for _, tc := range setListCases {
		list := ParseSetList(tc.fragment)
		require.NotNil(t, list)
		assert.Equal(t, tc.want, describeAssignments(list.Assignments), "fragment: %q", tc.fragment)
		assert.Equal(t, tc.unknown, list.Unknown, "Unknown of %q", tc.fragment)
	}
}

// conflictCases are conflict-clause fragments as bun's InsertQuery.On
// takes them.
var conflictCases = []struct{ fragment, want string }{
	{"CONFLICT (email) DO NOTHING", "on-conflict(email) nothing"},
	{"CONFLICT (email) DO UPDATE", "on-conflict(email) update"},
	{"CONFLICT DO NOTHING", "on-conflict nothing"},
	{"ON CONFLICT (id) DO UPDATE SET count = EXCLUDED.count", "on-conflict(id) update set[count=excl:count]"},
	{"CONFLICT ON CONSTRAINT users_email_key DO NOTHING", "on-conflict constraint users_email_key nothing"},
	{"DUPLICATE KEY UPDATE count = VALUES(count)", "on-duplicate-key update set[count=excl:count]"},
	{"CONFLICT (email) DO UPDATE SET count = users.count + 1 WHERE users.locked = false",
		"on-conflict(email) update set[count=f(users.count)!] where[users.locked = lit]"},
	{`CONFLICT ("tenant_id", "key") DO NOTHING`, "on-conflict(tenant_id,key) nothing"},
	// Named unknown cases.
	{"garbage", " unknown ?"},
	{"CONFLICT (lower(email)) DO NOTHING", "on-conflict nothing ?"},
	{"CONFLICT (email) DO SOMETHING", "on-conflict(email) unknown ?"},
	{"CONFLICT (email) DO NOTHING RETURNING id", "on-conflict(email) nothing ?"},
}

func TestParseConflict(t *testing.T) {
	for _, tc := range conflictCases {
		c := ParseConflict(tc.fragment)
		require.NotNil(t, c)
		assert.Equal(t, tc.want, describeConflict(c), "fragment: %q", tc.fragment)
	}
}

// rowLockCases are locking-clause fragments as bun's SelectQuery.For takes
// them.
var rowLockCases = []struct {
	fragment, want string
	ok             bool
}{
	{"UPDATE", "for update", true},
	{"FOR UPDATE", "for update", true},
	{"SHARE", "for share", true},
	{"NO KEY UPDATE", "for no key update", true},
	{"KEY SHARE", "for key share", true},
	{"UPDATE SKIP LOCKED", "for update skip locked", true},
	{"UPDATE NOWAIT", "for update nowait", true},
	{"SHARE OF ?TableAlias", "for share of ?TableAlias", true},
	{"UPDATE OF users, orders", "for update of users,orders", true},
	{"LOCK IN SHARE MODE", "lock in share mode", true},
	// Named unknown cases.
	{"garbage", "", false},
	{"UPDATE garbage", "", false},
	{"", "", false},
}

func TestParseRowLock(t *testing.T) {
	for _, tc := range rowLockCases {
		lock, ok := ParseRowLock(tc.fragment)
		assert.Equal(t, tc.ok, ok, "fragment: %q", tc.fragment)
		if ok {
			assert.Equal(t, tc.want, describeRowLock(lock), "fragment: %q", tc.fragment)
		}
	}
}

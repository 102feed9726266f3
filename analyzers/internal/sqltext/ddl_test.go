package sqltext

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// describeTables renders tables one per line:
//
//	name (col, …) key key …
//
// with "(named)" for a table only named by ALTER/INDEX statements and
// "(incomplete)" for one whose columns or keys are not all known. A key is
// pk(cols), unique(cols) or unique-index(cols), with :name after the kind
// when named, (expr part | part) for an expression key and "where …" for a
// partial index.
func describeTables(tables []*TableDef) []string {
	var out []string
	for _, t := range tables {
		s := qualified(t.Schema, t.Name)
		switch {
		case !t.Created:
			s += " (named)"
		case !t.Complete:
			s += " (incomplete)"
		}
		var cols []string
		for _, c := range t.Columns {
			cols = append(cols, c.Name)
		}
		s += " (" + strings.Join(cols, ", ") + ")"
		for _, k := range t.Keys {
			s += " " + describeKey(k)
		}
		out = append(out, s)
	}
	return out
}

func describeKey(k UniqueKey) string {
	kind := "unique"
	if k.Primary {
		kind = "pk"
	}
	if k.Index {
		kind += "-index"
	}
	if k.Name != "" {
		kind += ":" + k.Name
	}
	body := "(" + strings.Join(k.Columns, ",") + ")"
	if k.Expression {
		body = "(expr " + strings.Join(k.Parts, " | ") + ")"
	}
	if k.Where != "" {
		body += "[where " + k.Where + "]"
	}
	return kind + body
}

func describeProblems(problems []DDLProblem) []string {
	var out []string
	for _, p := range problems {
		out = append(out, fmt.Sprintf("%d: %s", p.Line, p.Msg))
	}
	return out
}

type ddlCase struct {
	name     string
	sql      string
	tables   []string
	problems []string
}

var ddlCases = []ddlCase{
	{
		name: "postgres migration",
		sql: `CREATE EXTENSION IF NOT EXISTS "uuid-ossp";
CREATE TYPE order_status AS ENUM ('pending', 'paid');
CREATE SCHEMA IF NOT EXISTS billing;
CREATE TABLE IF NOT EXISTS public.accounts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id bigint NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  email character varying(255) NOT NULL,
  handle text COLLATE "C" NOT NULL,
  balance numeric(12, 2) NOT NULL DEFAULT 0 CHECK (balance >= 0),
  tags text[] NOT NULL DEFAULT '{}',
  status order_status NOT NULL DEFAULT 'pending'::order_status,
  created_at timestamp with time zone NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  version integer NOT NULL DEFAULT 1,
  CONSTRAINT accounts_tenant_handle_key UNIQUE (tenant_id, handle),
  CONSTRAINT balance_positive CHECK (balance >= 0),
  EXCLUDE USING gist (tenant_id WITH =)
);
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS accounts_email_live ON ONLY public.accounts USING btree (lower(email)) WHERE deleted_at IS NULL;
CREATE UNIQUE INDEX accounts_email_key ON accounts (email) INCLUDE (handle) WHERE (deleted_at IS NULL);
CREATE INDEX accounts_created ON accounts (created_at DESC);
COMMENT ON TABLE accounts IS 'money; and more';
CREATE OR REPLACE FUNCTION touch() RETURNS trigger AS $$
BEGIN NEW.updated_at = now(); RETURN NEW; END;
$$ LANGUAGE plpgsql;
ALTER TABLE accounts ADD COLUMN IF NOT EXISTS external_id text UNIQUE;
ALTER TABLE ONLY accounts ADD CONSTRAINT accounts_ext UNIQUE (external_id, tenant_id), ALTER COLUMN handle SET NOT NULL;
CREATE TABLE billing.invoices (
  account_id uuid NOT NULL,
  number integer NOT NULL,
  PRIMARY KEY (account_id, number)
);
CREATE UNLOGGED TABLE cache (k text CONSTRAINT cache_k PRIMARY KEY, v jsonb);
CREATE UNIQUE INDEX ON cache ((v->>'id'));
`,
		tables: []string{
			"public.accounts (id, tenant_id, email, handle, balance, tags, status, created_at, deleted_at, version, external_id) " +
				"pk(id) unique:accounts_tenant_handle_key(tenant_id,handle) " +
				"unique-index:accounts_email_live(expr lower(email))[where deleted_at IS NULL] " +
				"unique-index:accounts_email_key(email)[where (deleted_at IS NULL)] unique(external_id) unique:accounts_ext(external_id,tenant_id)",
			"billing.invoices (account_id, number) pk(account_id,number)",
			"cache (k, v) pk:cache_k(k) unique-index(expr (v->>'id'))",
		},
	},
	{
		name: "mysql dump",
		sql: "/*!40101 SET NAMES utf8mb4 */;\n" +
			"DROP TABLE IF EXISTS `users`;\n" +
			"CREATE TABLE `users` (\n" +
			"  `id` bigint unsigned NOT NULL AUTO_INCREMENT,\n" +
			"  `email` varchar(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,\n" +
			"  `username` varchar(64) NOT NULL UNIQUE,\n" +
			"  `key` varchar(64) NOT NULL,\n" +
			"  `status` enum('active','banned') NOT NULL DEFAULT 'active',\n" +
			"  `updated_at` timestamp NULL DEFAULT NULL ON UPDATE CURRENT_TIMESTAMP,\n" +
			"  PRIMARY KEY (`id`),\n" +
			"  UNIQUE KEY `uk_email` (`email`(191)),\n" +
			"  UNIQUE INDEX `uk_key_status` USING BTREE (`key`, `status` DESC),\n" +
			"  KEY `idx_status` (`status`),\n" +
			"  FULLTEXT KEY `ft_email` (`email`),\n" +
			"  CONSTRAINT `fk_x` FOREIGN KEY (`id`) REFERENCES `other` (`id`)\n" +
			") ENGINE=InnoDB AUTO_INCREMENT=42 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci;\n" +
			"CREATE TABLE orders (id int NOT NULL AUTO_INCREMENT KEY, code char(8) UNIQUE KEY, `index` int, key varchar(20), INDEX (code), KEY k2 (id, code));\n" +
			"ALTER TABLE orders ADD UNIQUE INDEX uq_x (code, id), ADD UNIQUE (`key`), DROP INDEX code;\n" +
			"CREATE UNIQUE INDEX uq_lower USING BTREE ON orders ((lower(code)));\n" +
			"RENAME TABLE orders TO purchases;\n",
		tables: []string{
			"users (id, email, username, key, status, updated_at) unique(username) pk(id) unique-index:uk_email(email) unique-index:uk_key_status(key,status)",
			"purchases (id, code, index, key) pk(id) unique-index:uq_x(code,id) unique(key) unique-index:uq_lower(expr (lower(code)))",
		},
	},
	{
		name: "sqlite",
		sql: `PRAGMA foreign_keys = ON;
CREATE TABLE IF NOT EXISTS notes (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  slug TEXT NOT NULL UNIQUE ON CONFLICT ABORT,
  owner,
  body TEXT,
  UNIQUE (owner, slug) ON CONFLICT REPLACE
) WITHOUT ROWID, STRICT;
CREATE TABLE IF NOT EXISTS notes (other int UNIQUE);
CREATE UNIQUE INDEX IF NOT EXISTS main.notes_owner_lower ON notes (owner, slug COLLATE NOCASE) WHERE body IS NOT NULL;
CREATE UNIQUE INDEX IF NOT EXISTS notes_owner_lower ON notes (body);
CREATE TRIGGER notes_touch AFTER UPDATE ON notes BEGIN UPDATE notes SET body = body WHERE id = NEW.id; END;
ALTER TABLE notes ADD COLUMN archived INTEGER NOT NULL DEFAULT 0;
ALTER TABLE notes RENAME COLUMN body TO content;
CREATE VIRTUAL TABLE notes_fts USING fts5(content);
`,
		tables: []string{
			"notes (id, slug, owner, content, archived) pk(id) unique(slug) unique(owner,slug) unique-index:notes_owner_lower(owner,slug)[where body IS NOT NULL]",
		},
	},
	{
		name: "sqlc reference schema",
		sql: `CREATE TABLE accounts (
  id      BIGSERIAL PRIMARY KEY,
  email   TEXT NOT NULL UNIQUE,
  balance BIGINT NOT NULL DEFAULT 0,
  counter INT NOT NULL DEFAULT 0,
  version INT NOT NULL DEFAULT 0
);`,
		tables: []string{"accounts (id, email, balance, counter, version) pk(id) unique(email)"},
	},
	{
		name: "drops and renames",
		sql: `CREATE TABLE users (id int PRIMARY KEY, email text UNIQUE, handle text, tenant int, UNIQUE (tenant, handle));
CREATE TABLE gone (id int PRIMARY KEY);
CREATE UNIQUE INDEX users_handle ON users (handle);
CREATE UNIQUE INDEX users_tenant_email ON users (tenant, email);
ALTER TABLE users DROP CONSTRAINT users_email_key;
DROP INDEX IF EXISTS users_handle, nosuch CASCADE;
ALTER TABLE users RENAME COLUMN tenant TO org;
ALTER INDEX users_tenant_email RENAME TO users_org_email;
ALTER TABLE users RENAME TO members;
DROP TABLE gone, IF_NOT_THERE;
ALTER TABLE members DROP COLUMN handle;
CREATE UNIQUE INDEX members_email ON members (email);
ALTER TABLE members ADD CONSTRAINT members_email_unique UNIQUE USING INDEX members_email;
ALTER TABLE members DROP PRIMARY KEY;
`,
		tables: []string{"members (id, email, org) unique-index:users_org_email(org,email) unique:members_email_unique(email)"},
	},
	{
		name: "index before table and key-only tables",
		sql: `CREATE UNIQUE INDEX early ON later (code);
ALTER TABLE elsewhere ADD CONSTRAINT elsewhere_code UNIQUE (code);
CREATE TABLE later (id int, code text);
`,
		tables: []string{
			"later (id, code) unique-index:early(code)",
			"elsewhere (named) () unique:elsewhere_code(code)",
		},
	},
	{
		name: "incomplete tables",
		sql: `CREATE TABLE copy (LIKE accounts INCLUDING ALL);
CREATE TABLE child (extra int UNIQUE) INHERITS (parent);
CREATE TABLE part PARTITION OF measurements FOR VALUES FROM (1) TO (10);
CREATE TABLE snapshot AS SELECT * FROM accounts;
CREATE TABLE mysql_copy LIKE accounts;
CREATE TABLE empty ();
`,
		tables: []string{
			"copy (incomplete) ()",
			"child (incomplete) (extra) unique(extra)",
			"part (incomplete) ()",
			"snapshot (incomplete) ()",
			"mysql_copy (incomplete) ()",
			"empty ()",
		},
	},
	{
		name: "quoted names and case",
		sql: `CREATE TABLE "Users" ("Email" text UNIQUE, "Id" int, PRIMARY KEY ("Id"));
CREATE TABLE Orders (ID int CONSTRAINT "Orders_PK" PRIMARY KEY);
CREATE TABLE "my schema"."odd table" ("odd column" int UNIQUE);`,
		tables: []string{
			`Users (Email, Id) unique(Email) pk(Id)`,
			`orders (id) pk:Orders_PK(id)`,
			`my schema.odd table (odd column) unique(odd column)`,
		},
	},
	{
		name: "columns named like keywords",
		sql: "CREATE TABLE kv (key text PRIMARY KEY, index integer, value text, version int, status text);\n" +
			"CREATE TABLE t (id int, key varchar(10) UNIQUE, KEY (id), INDEX idx USING HASH (id));",
		tables: []string{
			"kv (key, index, value, version, status) pk(key)",
			"t (id, key) unique(key)",
		},
	},
	{
		name: "malformed statements are skipped with their line",
		sql: `CREATE TABLE good (id int PRIMARY KEY);
CREATE TABLE bad (id int PRIMARY KEY,
  name text UNIQUE
;
CREATE TABLE (id int);
CREATE UNIQUE INDEX ON good;
ALTER TABLE good ADD CONSTRAINT c UNIQUE (), ADD COLUMN x int UNIQUE;
CREATE TABLE odd (a int, , b int);
CREATE TABLE worse (a int UNIQUE + 1);
CREATE TABLE types (a int @ 3);
CREATE UNIQUE CLUSTERED INDEX i ON good (id);
ALTER TABLE;
CREATE TABLE later (a int UNIQUE);
`,
		tables: []string{
			"good (id) pk(id)",
			"worse (a) unique(a)",
			"later (a) unique(a)",
		},
		problems: []string{
			"2: skipped CREATE TABLE bad: the column list is not closed",
			"5: skipped CREATE TABLE: table name expected, found (",
			"6: skipped CREATE UNIQUE INDEX ON good: ( expected before the key's columns, found end of text",
			"7: skipped ALTER TABLE good: a key without columns",
			"8: skipped CREATE TABLE odd: empty item in the column list",
			"10: skipped CREATE TABLE types: unexpected @ in the type of column a",
			"11: skipped CREATE UNIQUE INDEX: INDEX expected, found CLUSTERED",
			"12: skipped ALTER TABLE: table name expected, found end of text",
		},
	},
	{
		name:     "unterminated literal",
		sql:      "CREATE TABLE a (id int PRIMARY KEY);\nCREATE TABLE b (x text DEFAULT 'oops);\nCREATE TABLE c (y int);\n",
		tables:   []string{"a (id) pk(id)"},
		problems: []string{"2: unterminated quoted text; the rest of the text is not read", "2: skipped CREATE TABLE b: the column list is not closed"},
	},
	{
		name:     "unterminated comment",
		sql:      "CREATE TABLE a (id int PRIMARY KEY);\n/* never closed\nCREATE TABLE c (y int);\n",
		tables:   []string{"a (id) pk(id)"},
		problems: []string{"2: unterminated /* comment; the rest of the text is not read"},
	},
	{
		name:     "invalid byte in a statement",
		sql:      "CREATE TABLE a (id int PRIMARY KEY \\ );\nINSERT INTO x VALUES ('\\');\nCREATE TABLE b (y int UNIQUE);",
		tables:   []string{"b (y) unique(y)"},
		problems: []string{"1: skipped CREATE TABLE: unexpected \\"},
	},
}

func TestParseDDL(t *testing.T) {
	for _, tc := range ddlCases {
		t.Run(tc.name, func(t *testing.T) {
			tables, problems := ParseDDL(tc.sql)
			assert.Equal(t, tc.tables, describeTables(tables))
			assert.Equal(t, tc.problems, describeProblems(problems))
		})
	}
}

// TestParseDemoSchema reads the demo service's schema.sql, which sqlc
// also reads.
func TestParseDemoSchema(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "testdata", "demo", "db", "schema.sql"))
	require.NoError(t, err)
	tables, problems := ParseDDL(string(data))
	assert.Empty(t, problems)
	assert.Equal(t, []string{
		"users (id, email, name, referred_by, payout_account, created_at) pk(id) unique(email)",
		"workspaces (id, name, plan, version, created_at, updated_at) pk(id)",
		"devices (id, workspace_id, user_id, token, platform, created_at) pk(id) unique(token)",
		"articles (id, slug, title, body, views, likes, created_at, updated_at) pk(id) unique(slug)",
		"tags (id, name) pk(id) unique(name)",
		"documents (id, workspace_id, title, body, status, version, updated_at) pk(id)",
		"document_events (id, document_id, kind, created_at) pk(id)",
		"orders (id, user_id, amount_cents, currency, status, charge_id, created_at, updated_at) pk(id)",
		"outbox (id, kind, payload, attempts, locked_until, processed_at, created_at) pk(id)",
		"referral_rewards (referee_id, referrer_id, payout_id, created_at) pk(referee_id)",
		"cashbacks (order_id, amount_cents, payout_id, created_at) pk(order_id)",
	}, describeTables(tables))
	assert.Equal(t, "bigserial", tables[0].Columns[0].Type)
	assert.Equal(t, "timestamptz", tables[0].Columns[5].Type)
	assert.Equal(t, 4, tables[0].Line)
}

// TestCatalogAcrossFiles applies migrations in order: a later file alters
// what an earlier one created.
func TestCatalogAcrossFiles(t *testing.T) {
	var c Catalog
	assert.Empty(t, c.Exec("CREATE TABLE users (id bigint PRIMARY KEY, email text NOT NULL);"))
	assert.Empty(t, c.Exec("CREATE UNIQUE INDEX users_email ON users (email);\nALTER TABLE users ADD COLUMN version int NOT NULL DEFAULT 0;"))
	assert.Empty(t, c.Exec("DROP INDEX users_email;\nCREATE UNIQUE INDEX users_email_live ON users (email) WHERE version > 0;"))
	assert.Equal(t, []string{"users (id, email, version) pk(id) unique-index:users_email_live(email)[where version > 0]"}, describeTables(c.Tables()))

	u := c.Table("public", "USERS")
	require.NotNil(t, u, "a table without a schema matches any; case folds when nothing matches exactly")
	cond := u.Keys[1].Condition()
	require.NotNil(t, cond)
	assert.Equal(t, "version > 0", cond.Text)
	assert.Nil(t, u.Keys[0].Condition())
	assert.Nil(t, c.Table("", "accounts"))
}

func TestDDLLines(t *testing.T) {
	tables, _ := ParseDDL("\n\nCREATE TABLE t (\n  a int,\n  b int UNIQUE,\n  UNIQUE (a, b)\n);\nCREATE UNIQUE INDEX i ON t (a);")
	require.Len(t, tables, 1)
	tb := tables[0]
	assert.Equal(t, 3, tb.Line)
	assert.Equal(t, 4, tb.Columns[0].Line)
	assert.Equal(t, 5, tb.Columns[1].Line)
	require.Len(t, tb.Keys, 3)
	assert.Equal(t, 5, tb.Keys[0].Line)
	assert.Equal(t, 6, tb.Keys[1].Line)
	assert.Equal(t, 8, tb.Keys[2].Line)
}

var ddlFuzzSeeds = []string{
	"", ";", "CREATE", "CREATE TABLE", "CREATE TABLE t", "CREATE TABLE t (", "CREATE TABLE t ()", "CREATE TABLE t (a",
	"CREATE TABLE t (a int UNIQUE", "CREATE UNIQUE INDEX", "CREATE UNIQUE INDEX ON", "CREATE UNIQUE INDEX i ON t (",
	"CREATE UNIQUE INDEX i ON t (a) WHERE", "ALTER TABLE t ADD", "ALTER TABLE t DROP", "ALTER TABLE t RENAME",
	"ALTER TABLE t RENAME a TO", "DROP INDEX", "DROP TABLE", "RENAME TABLE a", "ALTER INDEX a RENAME TO",
	"CREATE TABLE t (key (", "CREATE TABLE t (index idx (a", "CREATE TABLE t (a int, KEY", "CREATE TABLE t (UNIQUE KEY",
	"CREATE TABLE t (CONSTRAINT", "CREATE TABLE t (a int CONSTRAINT", "CREATE TABLE t (a b.c(1)[]", "CREATE TABLE a.b.c.d (x int)",
	"ALTER TABLE t ADD CONSTRAINT c UNIQUE USING INDEX", "ALTER TABLE t CHANGE a", "ALTER TABLE t MODIFY",
	"CREATE TABLE t (a int UNIQUE); ALTER TABLE t DROP CONSTRAINT t_a_key; ALTER TABLE t DROP INDEX a",
	"CREATE TABLE \"\" (a int)", "CREATE TABLE t (a int DEFAULT 'x", "CREATE TABLE t (a int) /* x", "\x00\xff",
}

func FuzzParseDDL(f *testing.F) {
	for _, tc := range ddlCases {
		f.Add(tc.sql)
	}
	for _, s := range ddlFuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, script string) {
		tables, problems := ParseDDL(script)
		lines := strings.Count(script, "\n") + 1
		for _, p := range problems {
			if p.Line < 1 || p.Line > lines || p.Msg == "" {
				t.Fatalf("problem %+v out of range (%d lines)", p, lines)
			}
		}
		for _, tb := range tables {
			if tb.Name == "" || tb.Line < 1 || tb.Line > lines {
				t.Fatalf("table %+v", tb)
			}
			if tb.Complete && !tb.Created {
				t.Fatalf("table %s complete but not created", tb.Name)
			}
			for _, c := range tb.Columns {
				if c.Name == "" || c.Line < 1 || c.Line > lines {
					t.Fatalf("column %+v", c)
				}
			}
			for _, k := range tb.Keys {
				if len(k.Parts) == 0 || k.Expression != (k.Columns == nil) || k.Line < 1 || k.Line > lines {
					t.Fatalf("key %+v", k)
				}
				if k.Where != "" && !k.Index {
					t.Fatalf("partial key %+v is not an index", k)
				}
				for _, c := range k.Columns {
					if c == "" {
						t.Fatalf("key %+v has an empty column", k)
					}
				}
			}
		}
	})
}

// TestDDLPathologicalInputsAreBounded feeds DDL built to make a careless
// catalog go quadratic.
func TestDDLPathologicalInputsAreBounded(t *testing.T) {
	const n = 20_000
	var tables, indexes, columns strings.Builder
	for i := range n {
		fmt.Fprintf(&tables, "CREATE TABLE t%d (id int PRIMARY KEY, a text UNIQUE);\n", i)
		fmt.Fprintf(&indexes, "CREATE UNIQUE INDEX i%d ON t (c%d);\n", i, i)
		fmt.Fprintf(&columns, ", c%d int UNIQUE", i)
	}
	inputs := map[string]string{
		"many tables":      tables.String(),
		"many indexes":     indexes.String(),
		"wide table":       "CREATE TABLE w (id int" + columns.String() + ");",
		"many actions":     "ALTER TABLE w ADD COLUMN x int" + strings.Repeat(", ADD UNIQUE (x)", n) + ";",
		"deep parentheses": "CREATE TABLE d (a int DEFAULT " + strings.Repeat("(", n) + "1" + strings.Repeat(")", n) + ");",
		"unclosed":         "CREATE TABLE d (a int DEFAULT " + strings.Repeat("(", n) + ";" + strings.Repeat("CREATE TABLE e (a int);", n/10),
		"semicolons":       strings.Repeat(";", 10*n),
		"garbage":          strings.Repeat("\x00\xff#?:@$(", n),
	}
	for name, sql := range inputs {
		began := time.Now()
		ParseDDL(sql)
		assert.Less(t, time.Since(began), 2*time.Second, "%s took too long", name)
	}
	got, _ := ParseDDL(inputs["many tables"])
	assert.Len(t, got, n)
	got, _ = ParseDDL(inputs["many indexes"])
	require.Len(t, got, 1)
	assert.Len(t, got[0].Keys, n)
}

func TestCatalogLiteralSet(t *testing.T) {
	tables, problems := ParseDDL(`
CREATE TABLE modules (name TEXT PRIMARY KEY, version INT NOT NULL, state JSONB);
UPDATE modules SET version = 3 WHERE name = 'escalation';
UPDATE modules SET state = $1 WHERE name = 'x' AND state = '{}';
UPDATE modules SET version = version + 1 WHERE name = 'y';
UPDATE missing SET version = 2;`)
	assert.Empty(t, problems)
	require.Len(t, tables, 1)
	assert.Equal(t, []string{"version"}, tables[0].LiteralSet, "a literal set without comparing it; a bound value, a compared column and a bump are not")
}

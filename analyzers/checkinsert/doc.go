// Package checkinsert defines an Analyzer that reports lookup-then-insert
// races.
//
// # Analyzer checkinsert
//
// checkinsert: report inserts made when a lookup of the same key found nothing, with nothing making the pair atomic
//
// Code that looks a row up and inserts it when nothing was found races
// with itself: two concurrent requests both find nothing and both insert.
// The result is two users with one email, two subscriptions where one is
// allowed, a webhook processed twice, or, when the lookup guards a side
// effect, a payout sent twice. With a unique key on the looked-up columns
// the second insert fails and the second caller gets an error instead of
// the row the first one created; without one, both rows are stored. Only
// the database can arbitrate: a unique key together with handling of its
// violation, or an atomic claim (INSERT ... ON CONFLICT DO NOTHING).
//
// The analyzer reports three sub-rules:
//
//   - checkinsert/race: an insert on the path where a lookup of the same
//     table and key found nothing. It is reported at the insert (or the
//     call of the helper that inserts), with the lookup as a related
//     position.
//   - checkinsert/firstorcreate: GORM FirstOrCreate, which is the same
//     lookup and insert in one call, unless its error is checked for a
//     unique violation.
//   - checkinsert/effect-before-claim: a call to another service (an HTTP
//     request, a payment call) made between the lookup and the insert on
//     the found-nothing path. It is reported at that call, with the lookup
//     and the insert as related positions, and replaces the race finding
//     for the pair.
//
// A lookup is a SELECT whose WHERE pins columns of its table to bound
// values, AND-ed or as the terms of one OR (username = $1 OR email = $2
// found nothing: neither is taken, and an insert of either races with
// it) (database/sql, sqlx, pgx; SELECT EXISTS (...) and count(*) too;
// SQL built by squirrel, with sq.Eq or written conditions, whether ToSql
// feeds the call or the builder runs it with RunWith; SQL built by goqu,
// with goqu.C(...).Eq, goqu.Ex or goqu.L conditions, whether ToSQL feeds
// the call or a dataset of a goqu.Database runs it: ScanStruct and
// ScanVal (false when nothing matched) or Count),
// a sqlc :one SELECT, GORM First, Take, Last or Count with conditions
// (inline, or Where steps with SQL fragments or struct conditions; the
// generics API's gorm.G[T](db).Where(...).First(ctx) too), bun
// Scan, Exists or Count with Where fragments, go-pg Select, First or Last
// of a single model, Exists or Count with Where fragments or WherePK, ent
// Only, First, Exist or Count with equality predicates (of a field, or
// of an edge's foreign key in the row: HasGroupWith(group.ID(v))), gorp
// SelectOne, SelectInt (0 when nothing matched) or Get by primary key
// (nil when nothing matched), xorm Get, GetOrError, Exist, Count or Update by ID, Where
// fragments, builder.Eq or a condition bean's fields (Get(&User{Email:
// e})), or a call of a function whose body
// does one and tells its caller that it found nothing: by returning nil
// with a nil error, by returning an error variable of its own, by
// returning the driver's error as it is or wrapped with %w, by
// returning a nil error only then (a validator that returns an error
// when the row exists), or by returning a bool that is true when the row
// exists (through facts,
// across packages). "Found nothing" is errors.Is(err, sql.ErrNoRows /
// pgx.ErrNoRows / gorm.ErrRecordNotFound / pg.ErrNoRows) or the helper's
// own sentinel, a false exists result (xorm Get's has), ent's IsNotFound,
// a nil result, !exists,
// count == 0 (or not count > 0), RowsAffected == 0 (of an UPDATE by the
// key, or of a GORM Find), the count xorm's Update by the key returns
// being 0, or the other side of err == nil for a lookup
// whose error is not nil whenever it found nothing (QueryRow's Scan,
// sqlx Get, gorp SelectOne, GORM First, Take and Last, and v1's Find into
// a struct, bun Scan and go-pg Select of one model, ent Only and First,
// xorm GetOrError, a sqlc :one SELECT, a helper that passes such an error
// on or returns its own error then; never xorm Get, a count, a slice, or a
// helper returning nil, nil): that side also runs on other failures, but
// the race is real on its found-nothing part; the insert must be on that branch, or be
// reached only through such branches when the checks are written apart
// (if err != nil && !errors.Is(err, pgx.ErrNoRows) { return err } else if
// err == nil { return ErrExists }), the tests of the error read together
// along each path. An insert is an INSERT statement, a sqlc INSERT, GORM
// Create (or Save of a model the function builds with no primary key and
// hands to nothing else: GORM inserts it) or bun NewInsert of a model built in the function (a GORM
// model the function was given, inserted as it is through a helper such
// as its own Create method, is keyed by the fields the caller reads from
// it), go-pg Insert
// of a model built in the function or given to it, ent Create with its
// Set steps (an edge's SetGroupID(v) and SetGroup(g) too), gorp Insert
// of a struct built in the function (it has no conflict clause), xorm
// Insert or InsertOne of one bean, goqu Insert(...).Rows of a goqu.Record or of a struct (columns by db tag,
// else lower-cased name; OnConflict read), or a helper whose body does
// one. The table of a GORM model and the columns of its fields come from
// the schema layer; a bun model's from its bun:"table:..." tag (a model
// without one is not analysed), a go-pg model's from its tableName
// field's pg tag (else go-pg's plural of its underscored name) and its
// fields' pg tags; an ent entity's from
// the generated Table and Field
// constants; a gorp struct's from its AddTableWithName registration in
// the same package and its db tags (a type registered elsewhere is not
// analysed); an xorm bean's from its TableName or type name and xorm
// tags, named by the mapper the program sets (engine.SetMapper,
// SetTableMapper, SetColumnMapper with names.GonicMapper, SnakeMapper
// or SameMapper, in the package or one it imports: a db package's
// engine setup), and, when none is seen, an unknown one or two that
// differ, a name the SnakeMapper and GonicMapper map differently
// (UserID) being left unknown unless the tag names the column. Same key means the
// same Go value (or the
// same field of one value) is bound to the lookup's predicate and to the
// inserted column, and both address the same table; column names alone are
// not evidence. A helper given a struct (u *User) and binding its fields
// carries them to its caller as keys, as do named placeholders bound from
// one struct or map (sqlx NamedExec(ctx, `... VALUES (:username)`, u):
// the field its db tag, else its lower-cased name, names; a map literal's
// entry): the caller's u.Username, as long as nothing stores to that field
// in between (one store binds the value stored). A model filled from a request by a helper that copies the
// request's fields into it on every call (c.Generate(&data), in a package
// of DTOs) holds the request's fields as its keys. The helpers may sit
// behind an interface their caller declares and another package
// implements: the package that binds the interface to its one
// implementation reports the caller's insert (in the standalone driver
// and golangci-lint; go vet and gopls analyse each package apart and
// cannot). An insert made by a closure that a transaction runs
// (db.Transaction(func(tx *gorm.DB) error {...}), a service's own helper
// running its callback in one, the transaction handed on in the
// callback's context) happens at the call that runs it, after the
// caller's lookup; GORM's Where(...).Or(...) after every Where is a
// lookup of either; a query built by one function and counted by a
// helper it is given to (util.Exists(ctx, db.Model(&User{}).Where(...)))
// is a lookup of the builder's keys.
//
// # Example
//
// Reported (checkinsert/race):
//
//	var id int64
//	err := db.QueryRowContext(ctx, `SELECT id FROM users WHERE email = $1`, email).Scan(&id)
//	if errors.Is(err, sql.ErrNoRows) {
//		_, err = db.ExecContext(ctx, `INSERT INTO users (email) VALUES ($1)`, email)
//	}
//
// Silent: claim first, and read the existing row when nothing was
// inserted.
//
//	res, err := db.ExecContext(ctx, `INSERT INTO users (email) VALUES ($1) ON CONFLICT (email) DO NOTHING`, email)
//
// Silent: catch the unique violation of the concurrent insert and re-read
// (or answer any error of the insert, or of FirstOrCreate, by reading the
// row again).
//
//	_, err = users.Create(ctx, email, name)
//	var pgErr *pgconn.PgError
//	if errors.As(err, &pgErr) && pgErr.Code == "23505" {
//		return users.ByEmail(ctx, email)
//	}
//
// Reported (checkinsert/firstorcreate), and its fix:
//
//	err := db.Where(Tag{Name: name}).FirstOrCreate(&t).Error
//
//	err := db.Where(Tag{Name: name}).FirstOrCreate(&t).Error
//	if errors.Is(err, gorm.ErrDuplicatedKey) { // needs TranslateError
//		err = db.Where(Tag{Name: name}).First(&t).Error
//	}
//
// Reported (checkinsert/effect-before-claim): the payout runs before the
// row that records it is claimed; insert the row with ON CONFLICT DO
// NOTHING first and pay only when the insert claimed it.
//
//	paid, err := rewards.ReferralReward(ctx, userID) // nil when none
//	...
//	if paid == nil {
//		payout, err := payments.CreatePayout(ctx, req) // reported here
//		...
//		err = rewards.AddReferralReward(ctx, userID, payout.ID)
//	}
//
// # What silences it
//
//   - the insert's error is checked for a unique violation, or answered
//     by reading the row again (after an UPDATE that found nothing, only
//     when the row is then updated again: an update-then-insert that
//     answers the violation with an error or a read makes the second
//     caller's update not happen): errors.As into
//     *pgconn.PgError, *pq.Error, *mysql.MySQLError or sqlite3.Error with
//     the code compared to a unique-violation code (23505, 1062, 2067,
//     1555), errors.Is with gorm.ErrDuplicatedKey, ent's IsConstraintError,
//     pgerrcode.IsIntegrityConstraintViolation, bun's IntegrityViolation,
//     go-pg's pg.Error IntegrityViolation() or Field('C'), or
//     a function whose body does one of these (through facts);
//   - the insert is idempotent on the key: ON CONFLICT whose target lies
//     within the looked-up columns (ON CONFLICT (id) on a generated id
//     protects nothing and is still reported), ON CONFLICT without a
//     target, ON DUPLICATE KEY UPDATE, INSERT IGNORE, GORM
//     Clauses(clause.OnConflict{...}), bun On("CONFLICT ...") or Ignore(),
//     go-pg OnConflict("(...) DO NOTHING"),
//     ent OnConflict and OnConflictColumns;
//   - the lookup runs in a transaction begun SERIALIZABLE
//     (sql.TxOptions{Isolation: sql.LevelSerializable}, pgx.TxOptions{IsoLevel:
//     pgx.Serializable}), or after a lock taken in the same transaction (an
//     advisory lock, SELECT ... FOR UPDATE of a parent row);
//   - the lookup checks that another row exists (a referenced parent) and
//     the insert runs when it was found;
//   - the claim comes first: insert, then read the existing row on conflict;
//   - the insert's error is answered by reading a row of its table again
//     (if err := m.Create(); err != nil { db.Where("slug = ?",
//     m.Slug).First(&found) }): the caller that loses the race gets the
//     row the winner inserted;
//   - every key of the lookup is fixed by the program (a constant, a struct
//     literal's constant field, an element of a package-level table such
//     as the loop variable ranging over it): reference rows seeded at
//     startup, which two requests cannot race on. Two instances starting
//     together can, which is a hazard of more than one replica; a request
//     path that gets-or-creates a constant row (a singleton settings row)
//     is silent for the same reason.
//
// What is not analysed yet, and so never reported: GORM Find checked
// other than by RowsAffected, Save and CreateInBatches, GORM
// Transaction's and bun RunInTx's isolation options, bun models without
// a table tag (go-pg's SelectOrInsert is not reported: it
// catches its insert's integrity violation and selects again); a lookup and an insert in different functions unless
// helpers carry them; a key that passes through a
// computation between lookup and insert; SQL that is not a constant.
// Unknown suppresses: when the SQL, the key or the branch is not
// understood, nothing is reported.
//
// # Suppressing
//
// When the key is known to be written by one writer only (a per-tenant
// worker, say), silence the finding on the reported line:
//
//	//idemlint:ignore checkinsert/race tenants are single-writer
package checkinsert

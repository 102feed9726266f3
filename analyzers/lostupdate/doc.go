// Package lostupdate defines an Analyzer that reports values read from
// the database, changed in Go and written back.
//
// # Analyzer lostupdate
//
// lostupdate: report values read from the database, changed in Go and written back without a row lock, a version check or atomic SQL
//
// Code that reads a counter or a balance, changes it in Go and writes the
// result back loses updates under concurrency: two requests read the same
// old value, each adds its own delta, and the second write overwrites the
// first. A view counter undercounts; a balance debited twice is charged
// once. The arithmetic belongs in the UPDATE (SET views = views + 1), or
// the row must be locked (SELECT ... FOR UPDATE in the transaction that
// writes it) or version-checked between the read and the write.
//
// The analyzer reports one sub-rule, lostupdate/writeback: a write of a
// column whose new value is derived from the same column of the same row
// as an earlier read in the same function left it. It is reported at the
// write, with the read as a related position. Derived means a def-use
// path in SSA from the scan destination or the loaded model field to the
// written value: arithmetic, ++ and +=, append, concatenation, calls
// taking it, and a conversion of the row by a function of the package
// (t := rec.toTask(): what it stores into each field of the struct it
// returns, from its argument's fields); names are not evidence. A value
// written back as it was read is no change, unless the row's address was
// given in between to a call that may change it: to a function value (a
// callback the caller passes, UpdateTask(ctx, id, modify func(*Task)
// error)), the message names it: the row is changed by code the function
// cannot see and written back whole, a read-modify-write. A function
// value given the row and returning a value of its type (updateFn
// func(*Hour) (*Hour, error)) is taken to return it.
//
// The path goes through encoding round trips and Go maps: a JSON column
// decoded (json.Unmarshal(b, &m), a json.Decoder over it; the codec rows
// of the knowledge tables, encoding/json and goccy/go-json) makes what it
// fills derived from the bytes, and its encoding (json.Marshal(m), and
// string(b) or []byte(s) of it) derived from what it encodes; an entry
// of a map (m[k], a range over m) is derived from the values stored into
// it. Through a decode the change must be in the decoded value: an entry
// set or deleted (m[k] = v, delete), a field or element stored (p.Theme =
// t), or the value given to a function of the package that does so
// (addReaction(m, emoji, user)). Decoding and encoding again with nothing
// changed in between is no change, and a document encoded from the
// request's value rather than the decoded one is not derived from the
// read.
//
// The same sub-rule reports a whole-row write of a stale copy: a write of
// every column of a model (GORM Save(&m), or Updates(&m), with no Select,
// Omit or Where step; gorp Update(&row); xorm Update(&bean) without Cols;
// bun NewUpdate().Model(m) and go-pg Update() without Column or Set
// steps), by the function or by a helper that writes its model parameter
// whole, of a model the function read (itself, or through a helper
// returning it) and changed some field of since. The columns not stored
// on every path from the read to the write (its primary key and GORM's
// UpdatedAt apart) are written back as they were read. That alone is
// most CRUD code (First(&m); m.Name = req.Name; Save(&m)); it loses an
// update when another function of the program changes one of those
// columns: an UPDATE setting it (a status transition, an atomic
// increment), GORM Update("c", v) or Updates(map) with that key, or a
// field another function changes on a row it read and writes back. Only
// then is it reported, and the message names that writer: a call of it
// between this read and this write is undone. The writers are collected
// per table from the package and every package it imports; tests are
// neither reported nor writers. Without the other-writer condition the
// comparison services gained 13 findings that could lose nothing (a
// created_by no one else writes) beside the 13 it keeps (design.md).
// A model given in between to a call that may change any field is not
// known stale (a copying helper's fields count as changed).
//
// A read is a SELECT run by database/sql, sqlx or pgx (constant, or built
// by squirrel or goqu with constant tables and columns; a goqu dataset's
// own ScanStruct or ScanVal too) whose one row is
// scanned by Scan into destinations aligned with its select list (GORM
// Raw("SELECT c ...").Scan(&v) of one column too), or by sqlx's Get into
// a value or a struct (fields by db tag, else lower-cased name; for
// SELECT * of one table, every field the mapper fills); ent's
// Get, Only or First (on a client of any ent from v0.10 on, in the
// function or in a helper returning the entity); GORM's generics gorm.G[T](db).Where(...).First(ctx)
// (Take, Last); a sqlc-generated :one SELECT by key (its result's fields
// hold the columns, in this package or another, through facts); GORM
// First, Take, Last or Find into a model, bun NewSelect().Model(m)...
// Scan(ctx), go-pg Model(m)...Select() (First, Last) into a single
// model, gorp SelectOne(&row, ...) (as sqlx's Get) or Get(T{}, id)
// asserted back to *T, xorm Get(&bean) by ID, Where fragments,
// builder.Eq conditions (joined by And too) or the bean's fields,
// MongoDB FindOne(ctx, filter).Decode(&doc) with a filter of field
// equalities, go-redis v9 and v8 Get of a key (what its Result, Val, Int64,
// Bytes or Scan return; not on a Watch callback's Tx), or a
// call of a function that returns a pointer to a model it
// read that way, or the model itself by value (var m T; db.Find(&m);
// return m, nil, the caller's variable holding it: a repository's Get,
// through facts, across packages); a SQL SELECT by key scanned into the
// fields of a struct the function returns (Scan(&b.ID, ..., &b.Quantity),
// the rows of Query scanned in a rows.Next loop too, or sqlx's Get into
// it) is such a read, its fields holding the columns aligned with them,
// and so is a function returning, as it is, what such a helper returned
// (a use case's GetBook over its repository's Get); the caller's own
// UPDATE of the same key from such a read's field is a write too, and so
// is a write helper given the struct an inline Scan filled. A
// write is an UPDATE ... SET c = $n (squirrel's Set("c", v), goqu's
// Set(goqu.Record{"c": v}) too; SET c = :c bound by sqlx's NamedExec
// from the row read, its field changed in Go, or from a map literal) whose
// WHERE pins the same key column to the same Go value as the SELECT's,
// or to the value the SELECT returned for it (through a conversion too:
// WHERE id = t.ID); GORM Save(&m) or Updates(&m) of
// the model read (each field stored since; every field, its primary key
// apart, when m was given to a function value first); Model(&m).Update("c", v),
// UpdateColumn("c", v), Updates(map[string]any{"c": v}), and
// Where(...).Updates(T{C: v}) of a struct literal (each field it sets, to
// the row the Where pins); bun
// NewUpdate().Model(m) (each field stored since, within its Column steps),
// .Set("c = ?", v) and .SetColumn("c", "?", v); go-pg Model(m)...Update()
// or UpdateNotZero() (each field stored since, within its Column steps),
// .Set("c = ?", v) and .Value("c", "?", v); gorp Update(&row) of the row
// read (each field stored since; the table registered in the package
// with AddTableWithName); MongoDB UpdateOne, UpdateMany or
// FindOneAndUpdate with the same filter field, each field its $set gives
// ($inc, $max and the other operators compute in the database; a filter
// on the field it sets, or with any other operator, is a compare-and-set)
// and ReplaceOne of the document read (each field stored since);
// go-redis Set of the same key (keys read as patterns: "user:"+id,
// fmt.Sprintf("user:%s", id), a key helper; IncrBy and HIncrBy are
// atomic, a Get under Watch is checked by the EXEC); xorm Update(&bean) of the bean read (each field
// stored since, within its Cols; Incr, Decr and SetExpr are atomic); the generics
// G[T](db).Where(...).Update(ctx, "c", v) or Updates(ctx, T{F: v}) of the
// same row; ent SetX(v) on
// UpdateOneID(id), UpdateOne(e) or e.Update(); a sqlc-generated UPDATE
// whose placeholder takes the value, as an argument or a field of its
// <Name>Params; or a call of a function
// that writes its model parameter whole that way (a repository's Save),
// or writes the fields it sets from it to that model's row (a store's
// UpdateOne(m).SetCount(m.Count)...Save(ctx) on ent's client, or an
// UPDATE t SET c1 = ?, ... WHERE id = ? bound from the fields of its
// struct parameter, its key included, with nothing else in the WHERE:
// the caller's changes to those fields), or passes its parameter on to
// such a function (less the fields it stores itself, a timestamp).
// Through interfaces, a use case's call of another use case's interface
// whose implementation calls a repository interface is completed by the
// package that binds both (loan over book.UseCase over book.Repository).
// An interface's one implementation in its own package counts only when
// the package's own code makes one: an in-memory double only its tests
// make leaves the interface to the program's binding.
//
// Several rows read at once by a set of keys (SELECT id, wallet FROM
// users WHERE id = ANY($1), or id IN ($1, $2)) by database/sql or pgx
// Query, each scanned in the rows.Next loop, count as reads of each row:
// a write (UPDATE ... WHERE id = $1) pinning a column of the set is of
// the row read when its value reaches the column read only through map
// entries looked up by the key they were stored under, back to the key
// scanned from the same row (wallets[id] = m in the loop; m :=
// wallets[userID], changed, encoded, stored as updated[userID]; the
// UPDATE of updated[userID] WHERE id = userID; or a range over the map
// whose key the UPDATE pins). A path through a slice's elements, or an
// entry whose key is not the one the write pins, is not of the same row
// and stays silent.
//
// The columns of a GORM model's fields come from the schema layer, a bun
// model's from its bun tags, a go-pg model's from its pg tags, a gorp
// struct's from its db tags, an xorm bean's from its xorm tags, a MongoDB
// document's from its bson tags (else lower-cased names). MongoDB reads
// and writes through a helper of another function are not followed yet.
//
// When the write is GORM Update("c", m.F+d) or UpdateColumn with exactly
// the old value plus or minus a delta, a suggested fix rewrites the value
// to gorm.Expr("c + ?", d).
//
// # Example
//
// Reported:
//
//	var a Article
//	if err := db.Where("slug = ?", slug).First(&a).Error; err != nil {
//		return err
//	}
//	a.Views++
//	return db.Save(&a).Error // reported here
//
// Silent: the database adds.
//
//	return db.Model(&a).UpdateColumn("views", gorm.Expr("views + ?", 1)).Error
//
// Reported, a whole-row Save while another function changes a column:
//
//	issue, err := s.store.GetByID(ctx, id) // First(&i)
//	...
//	issue.Name = *p.Name
//	return s.store.Update(ctx, issue) // Save(i); reported here: state is written back as read
//
//	func (s *Store) Transition(ctx context.Context, id int64, state string) error {
//		return s.db.WithContext(ctx).Model(&Issue{}).Where("id = ?", id).Update("state", state).Error
//	}
//
// Silent: only the changed columns are written.
//
//	return db.Model(&Issue{}).Where("id = ?", id).Updates(map[string]any{"name": *p.Name}).Error
//
// Reported, raw SQL:
//
//	var balance int64
//	err := tx.QueryRowContext(ctx, `SELECT balance FROM accounts WHERE id = $1`, id).Scan(&balance)
//	...
//	_, err = tx.ExecContext(ctx, `UPDATE accounts SET balance = $1 WHERE id = $2`, balance-amount, id)
//
// Silent: the same with SELECT ... FOR UPDATE in the transaction, or
// UPDATE accounts SET balance = balance - $1 WHERE id = $2.
//
// Reported, bun, at the Set step's update:
//
//	_, err := db.NewUpdate().Model(&w).Set("balance = ?", w.Balance-amount).WherePK().Exec(ctx)
//
// Silent: .Set("balance = balance - ?", amount).
//
// Reported, ent:
//
//	acc, err := client.Account.Get(ctx, id)
//	...
//	err = client.Account.UpdateOneID(id).SetBalance(acc.Balance - amount).Exec(ctx)
//
// Silent: UpdateOneID(id).AddBalance(-amount), or the read with
// ForUpdate() in the transaction that writes.
//
// Reported, a JSON document changed in Go:
//
//	err := tx.QueryRowContext(ctx, `SELECT settings FROM users WHERE id = $1`, id).Scan(&doc)
//	...
//	json.Unmarshal(doc, &m)
//	m[key] = on
//	out, _ := json.Marshal(m)
//	_, err = tx.ExecContext(ctx, `UPDATE users SET settings = $1 WHERE id = $2`, out, id)
//
// Silent: UPDATE users SET settings = jsonb_set(settings, ARRAY[$2],
// $3::jsonb) WHERE id = $1, or the read FOR UPDATE in the transaction.
//
// # What silences it
//
//   - the update is atomic in SQL: SET c = c + $1, gorm.Expr("c + ?", d);
//   - the read took a row lock in the transaction that writes (FOR UPDATE,
//     FOR SHARE, GORM clause.Locking, bun's and go-pg's For("UPDATE")) or
//     runs after one, or the transaction
//     was begun SERIALIZABLE. A FOR UPDATE run on the pool (*sql.DB,
//     *sqlx.DB, *pgxpool.Pool, a *gorm.DB not begun), even after a Begin
//     whose transaction the function then does not use, holds the lock
//     only for its own statement: it silences nothing, and the message
//     says so;
//   - the write is guarded optimistically: the UPDATE's WHERE pins the
//     version column (version-column setting, "version" by default) or a
//     column it also sets (compare-and-set on the old value), or compares
//     something besides columns equal to bound values (a range on a
//     column it sets, stock_num >= $2, is a floor both writers pass, not
//     a guard); a GORM or bun
//     update of a loaded model has a Where step (go-pg: a Where comparing
//     anything but the model's primary key). That the affected-row
//     count is then checked is assumed, not verified;
//   - the value comes from another column or table, or from outside the
//     database (a request field, time.Now, another service's figure), or
//     is the value read, unchanged (a callback given only a copy);
//   - a whole-row write of columns no other function writes, of a row
//     the function built rather than read, or with Select (GORM), Cols
//     (xorm) or Column (bun, go-pg) naming the columns written;
//   - the row is versioned: noversion reports it instead. Versioned is
//     decided once for both analyzers: a version column in the schema,
//     GORM's optimisticlock.Version, a field named as the version-field
//     setting that some update of the package compares or bumps, or a
//     table no schema describes whose version column some update of the
//     package compares or bumps.
//
// What is not analysed yet, and so never reported: the generics API's
// Set steps; a read and a
// write in different functions other than through a helper returning the
// model it read or writing the model it is given (whole, or the fields
// it sets from it); rows read by a key set and kept in a slice, rows
// read by other conditions in a loop, or sqlx Select into a slice; codecs
// the knowledge tables do not name, and json.Encoder; RowsAffected after a
// guarded UPDATE is not checked. Unknown suppresses: when the SQL,
// the key or the path of the value is not understood, nothing is
// reported.
//
// # Suppressing
//
// When the row has one writer only, silence the finding on the reported
// line:
//
//	//idemlint:ignore lostupdate/writeback single writer per account
package lostupdate

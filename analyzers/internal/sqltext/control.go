package sqltext

import "strings"

// This file parses LOCK TABLE(S) and the transaction-control statements.

// parseLockTable parses PostgreSQL's LOCK [TABLE] [ONLY] t [, …] [IN mode
// MODE] [NOWAIT] and MySQL's LOCK TABLES t [[AS] a] READ [LOCAL] |
// [LOW_PRIORITY] WRITE, ….
func (p *parser) parseLockTable(st *Statement) {
	st.Verb = p.next().word
	st.Kind = KindOther
	if !p.acceptWord("table") {
		p.acceptWord("tables")
	}
	var locks []TableLock
	for !p.aborted {
		p.acceptWord("only")
		ref, ok := p.parseTableName()
		if !ok {
			p.unknown(st, "lock: unexpected "+describeToken(p.peek()))
			p.skipRest()
			return
		}
		p.acceptOp("*")
		lock := TableLock{Table: ref}
		if p.acceptWord("as") && p.peek().isName() {
			lock.Table.Alias = p.next().word
		} else if t := p.peek(); t.isName() && !t.isWord("read") && !t.isWord("write") && !t.isWord("low_priority") && !t.isWord("in") && !t.isWord("nowait") {
			lock.Table.Alias = p.next().word
		}
		switch {
		case p.acceptWords("read", "local"):
			lock.Mode = "read local"
		case p.acceptWord("read"):
			lock.Mode = "read"
		case p.acceptWords("low_priority", "write"):
			lock.Mode = "low_priority write"
		case p.acceptWord("write"):
			lock.Mode = "write"
		}
		locks = append(locks, lock)
		if !p.acceptPunct(",") {
			break
		}
	}
	mode := ""
	if p.acceptWord("in") {
		var words []string
		for p.peek().kind == tokWord && !p.atWord("mode") {
			words = append(words, p.next().word)
		}
		if !p.acceptWord("mode") || len(words) == 0 {
			p.unknown(st, "lock: unexpected "+describeToken(p.peek()))
		}
		mode = strings.Join(words, " ")
	}
	noWait := p.acceptWord("nowait")
	for i := range locks {
		if locks[i].Mode == "" {
			locks[i].Mode = mode
			if mode == "" {
				locks[i].Mode = "access exclusive" // PostgreSQL's default
			}
		}
		locks[i].NoWait = noWait
	}
	st.TableLocks = locks
}

// setsTransaction reports whether the SET statement at the current token
// sets transaction characteristics.
func (p *parser) setsTransaction() bool {
	i := 1
	if w := p.peekAt(i).word; w == "session" || w == "global" || w == "local" {
		i++
	}
	t := p.peekAt(i)
	switch {
	case t.isWord("transaction"):
		return true
	case t.isWord("characteristics"):
		return true
	case t.kind == tokWord || t.kind == tokVariable:
		return isIsolationVariable(t.word)
	}
	return false
}

func isIsolationVariable(name string) bool {
	name = strings.TrimPrefix(name, "@@")
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	return name == "transaction_isolation" || name == "tx_isolation" || name == "default_transaction_isolation"
}

func (p *parser) parseTransaction(st *Statement) {
	st.Kind = KindOther
	st.Verb = p.next().word
	tx := &TransactionControl{}
	st.Transaction = tx
	switch st.Verb {
	case "begin", "start":
		tx.Op = TxBegin
		if st.Verb == "start" && !p.atWord("transaction") {
			st.Transaction = nil // START SLAVE, START REPLICA, …
			p.skipRest()
			return
		}
		if w := p.peek().word; w == "deferred" || w == "immediate" || w == "exclusive" {
			tx.SQLiteMode = w
			p.next()
		}
	case "commit", "end":
		tx.Op = TxCommit
	case "rollback", "abort":
		tx.Op = TxRollback
		if !p.acceptWord("work") {
			p.acceptWord("transaction")
		}
		if p.acceptWord("to") {
			tx.Op = TxRollbackToSavepoint
			p.acceptWord("savepoint")
			tx.Savepoint = p.next().word
		}
	case "savepoint":
		tx.Op = TxSavepoint
		tx.Savepoint = p.next().word
	case "release":
		tx.Op = TxReleaseSavepoint
		p.acceptWord("savepoint")
		tx.Savepoint = p.next().word
	case "set":
		tx.Op = TxSetCharacteristics
		if w := p.peek().word; w == "session" || w == "global" || w == "local" {
			p.next()
		}
		if t := p.peek(); (t.kind == tokWord || t.kind == tokVariable) && isIsolationVariable(t.word) {
			p.next()
			if !p.acceptOp("=") {
				p.acceptWord("to")
			}
			v := p.next()
			level := v.word
			if v.kind == tokString {
				level = strings.Trim(v.text, "'")
			}
			tx.IsolationLevel = strings.NewReplacer("-", " ", "_", " ").Replace(strings.ToLower(level))
			p.skipRest()
			return
		}
	}
	for !p.atStatementEnd() {
		switch {
		case p.acceptWords("isolation", "level"):
			var words []string
			for p.peek().kind == tokWord && len(words) < 2 {
				w := p.peek().word
				if w != "serializable" && w != "repeatable" && w != "read" && w != "committed" && w != "uncommitted" && w != "snapshot" {
					break
				}
				if len(words) == 1 && words[0] != "repeatable" && words[0] != "read" {
					break
				}
				words = append(words, p.next().word)
			}
			tx.IsolationLevel = strings.Join(words, " ")
		case p.acceptWords("read", "only"):
			tx.ReadOnly = true
		default:
			p.skipOne()
		}
	}
}

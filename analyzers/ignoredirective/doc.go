// Package ignoredirective defines an Analyzer that reports //idemlint:ignore
// and //idemlint:file-ignore directives that cannot be honoured.
//
// # Analyzer ignoredirective
//
// ignoredirective: report malformed //idemlint:ignore and //idemlint:file-ignore directives
//
// A finding that is wrong for a reason the analyzer cannot see is silenced
// with a directive:
//
//	//idemlint:ignore NAME[,NAME] reason
//	//idemlint:file-ignore NAME[,NAME] reason
//
// NAME is an analyzer (checkinsert) or one of its sub-rules
// (checkinsert/race); the reason is free text and required, so that the next
// reader knows why the finding does not apply. There is no space after the
// slashes, as in //go: and //nolint directives.
//
// What an //idemlint:ignore covers depends on where it stands, as with
// golangci-lint's //nolint:
//
//   - on a line of its own, the statement or declaration that starts on
//     the next line, all of its lines: a directive above
//     err := s.db.WithContext(ctx). covers the finding on the chain's last
//     line, and one above a func, var, const or type declaration covers
//     the declaration. Where several statements start on that line the
//     innermost is taken (above if err := ...; err != nil {, the init
//     statement, not the body); where none does, just the next line;
//   - at the end of a line of code, that line and the next.
//
// An //idemlint:file-ignore anywhere in a file (conventionally below the
// package clause) covers the whole file. To turn an analyzer off under a
// directory, use the disable setting of .idemlint.yml instead of a
// directive in each file.
//
// A directive that is malformed silences nothing, so a typo would bring the
// finding back unnoticed. This analyzer reports, once each, directives that:
//
//   - have a space after the slashes (// idemlint:ignore);
//   - use a verb other than ignore or file-ignore;
//   - name no analyzer, or an empty name (a stray comma or a space in the list);
//   - name something that is not an idemlint analyzer, or a sub-rule
//     left empty (checkinsert/);
//   - give no reason.
//
// Each analyzer reports, under its own name (NAME/unused-ignore), the
// directives naming it that suppressed nothing, file-ignores included, so
// stale directives do not pile up; not where its findings are not all
// known (a function whose analysis failed, or whose findings a package
// binding its interfaces completes), nor where the disable setting turns
// the name off. ignoredirective is always on unless turned off by name
// (-ignoredirective=false).
//
// Because it is always on, it also says, at the package clause, when the
// package's configuration cannot be read (ignoredirective/config): a
// .idemlint.yml with a bad setting, or a schema file that does not exist.
// The binary, go vet and golangci-lint stop with that error before they
// analyse anything; an editor cannot, and shows it here instead, while no
// other analyzer reports in the package.
//
// # Example
//
// Reported:
//
//	//idemlint:ignore checkinsert
//	err := s.db.WithContext(ctx).
//		Create(&u).Error
//
// Silent:
//
//	//idemlint:ignore checkinsert emails are unique per tenant and tenants are single-writer
//	err := s.db.WithContext(ctx).
//		Create(&u).Error
package ignoredirective

// Package ignoredirective defines an Analyzer that reports //idemlint:ignore
// directives that cannot be honoured.
//
// # Analyzer ignoredirective
//
// ignoredirective: report malformed //idemlint:ignore directives
//
// A finding that is wrong for a reason the analyzer cannot see is silenced
// with a directive on the reported line or on the line above it:
//
//	//idemlint:ignore NAME[,NAME] reason
//
// NAME is an analyzer (checkinsert) or one of its sub-rules
// (checkinsert/race); the reason is free text and required, so that the next
// reader knows why the finding does not apply. There is no space after the
// slashes, as in //go: and //nolint directives.
//
// A directive that is malformed silences nothing, so a typo would bring the
// finding back unnoticed. This analyzer reports, once each, directives that:
//
//   - have a space after the slashes (// idemlint:ignore);
//   - use a verb other than ignore;
//   - name no analyzer, or an empty name (a stray comma or a space in the list);
//   - name something that is not an idemlint analyzer;
//   - give no reason.
//
// Each analyzer reports, under its own name, the directives naming it that
// suppressed nothing, so stale directives do not pile up. ignoredirective is
// always on unless turned off by name (-ignoredirective=false).
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
//	if err := users.Create(ctx, u); err != nil {
//
// Silent:
//
//	//idemlint:ignore checkinsert emails are unique per tenant and tenants are single-writer
//	if err := users.Create(ctx, u); err != nil {
package ignoredirective

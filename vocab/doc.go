// Package vocab renders condition vocabularies and rule tables for
// people and tools: a kind's reason tables as markdown, every
// vocabulary as JSON, the pages of a docs directory with their index,
// and the rule table as markdown. It takes the vocabularies and rules as
// values (those of the systems a tool is given, see package system), so
// the same pages come out for any kind; `condengine vocab` and
// `condengine explain -rules` print through it, and docs/vocabulary and
// docs/rules.md are its output for the seed systems.
//
// Each reason's row names the rules that may write it (RulesFor), so a
// reader goes from a reason to the code that decides it in one hop.
//
// # Decisions
//
//   - Text from the tables (meanings, actions, rule sentences) is put in
//     a cell on one line, its pipes escaped (Cell): no text can break the
//     table.
//   - A page's file name is the lower-case kind and ".md"; the index is
//     README.md, so a directory listing on a code host shows it.
//   - Notes (how the pages were generated) are the caller's: the package
//     does not know which command or generator wrote them.
package vocab

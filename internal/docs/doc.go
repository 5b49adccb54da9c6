// Package docs holds the tests that keep the repository's documentation honest: the
// README and the pages of docs/ run their marked examples, name only commands and
// flags that exist, link only to files of the repository, and cite papers instead of
// files outside it. It has no code of its own.
//
// # Examples
//
// A fenced block whose info string is "sh example" holds one command, and the next
// fenced block, whose info string is "text output", what it prints (standard output
// and standard error, as a terminal shows them):
//
//	```sh example
//	interderive run testdata/lambda/factorial.lam
//	```
//
//	```text output
//	120
//	```
//
// The command is interderive (or go run ./cmd/interderive) and its arguments, quoted
// as the shell quotes them, with an optional "# comment"; it runs from the
// repository's root, with interderive built once for the test. The output is compared
// line by line, trailing white space ignored, with two allowances: a line "..." stands
// for any number of lines, and "<time>" within a line for a duration as Go prints it
// (12µs, 1.5ms). A last line "(exit status N)" is the exit status the command must
// end with (0 when there is none). "sh example slow" marks an example that
// go test -short skips.
package docs

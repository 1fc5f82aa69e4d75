// Package batch runs a command's sessions: it reads them on a pool of
// workers, prepares each once, runs it under each compiled policy
// (policies.Compiled), and hands the results back in input order, whatever
// order the workers finish in, with memory bounded by the sessions in
// flight (Ordered). Each command of ctxlab is one call here: Replay (or
// ReplayStream, for a format that streams), Compare, Sweep, Gate, Export,
// and Redraw for `ctxlab plot`; they return the command's document and
// errors, never dropping one, and the command renders it (report/render).
//
// The inputs are found before any is read (Inputs), each session's value
// is made apart from the others and merged by the document's constructor,
// and plots are drawn on the worker that read their session. docs/design.md
// ("The driver") gives the flow step by step; docs/performance.md the
// heap's tuning (TuneGC).
package batch

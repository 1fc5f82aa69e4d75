// Package batch runs a command's sessions: it reads them on a pool of
// workers, prepares each once, runs it under each compiled policy
// (policies.Compiled), and hands the results back in input order, whatever
// order the workers finish in, with memory bounded by the sessions in
// flight (Ordered). Each command of ctxlab is one call here: Replay (or
// ReplayStream, for a format that streams), Compare, Sweep, Gate, Export,
// and Redraw for `ctxlab plot`; they return the command's document and
// errors, never dropping one, and the command renders it (report/render).
//
//	in → Each: per session, on a worker: replay.Load → Session (Report,
//	     Trace, Run, prepared and run once each) → work → value
//	   → in input order, on the caller: warnings and read errors to the
//	     log → emit(value)
//	   → the command's document (report) and its plots (Plots)
//
// The inputs are found before any is read (Inputs), so a subset of them
// can be chosen by a stable property of each source, and each session's
// value is made apart from the others, to be merged by the document's
// constructor. Plots are drawn on the worker that read their session and
// written whole or not at all. Before a large run the heap is grown in
// huge pages where Linux gives them on request (TuneGC, growHeap).
package batch

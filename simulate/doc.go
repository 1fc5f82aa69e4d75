// Package simulate replays a session's main thread under a context policy
// and reports what each API call would have cost: the context size, what
// the prompt cache read and wrote, the threshold state, the policy's acts.
//
//	tr := simulate.Prepare(session)            // once per session: exact segment sizes
//	res := simulate.Run(tr, policy, simulate.DefaultConfig())
//
// The replay is trace-driven (docs/design.md): the session's future
// messages are taken as recorded, and a policy only changes what stays in
// the context. Sizes are exact where the transcript's usage allows (the
// prompt growth between two calls is the size of what was appended, split
// among its blocks by Claude Code's estimate) and estimated with a
// per-session calibrated ratio elsewhere. The prompt cache is modelled as
// prefixes with a TTL (package promptcache); policies (package policies) act through
// State's methods. See docs/simulation.md.
package simulate

package main

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// emptySession is the id of a transcript whose main thread made no call:
// one summary line, as Claude Code leaves in a file it has not written a
// message to yet.
const emptySession = "0e0e0e0e-0000-4000-8000-000000000000"

// withEmptySession copies the fixtures and adds a project holding a
// session without a call.
func withEmptySession(t *testing.T) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "projects")
	err := filepath.WalkDir(fixtures, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(fixtures, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(root, rel), 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(root, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "-home-dev-empty")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	line := `{"type":"summary","summary":"An earlier task","leafUuid":"3df2bfa2-92f4-4274-b6b8-a5ccc6d98025"}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, emptySession+".jsonl"), []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

// TestSessionsWithoutCalls: a session whose main thread made no call has
// nothing to replay. It stays in the sessions and the totals, but leaves
// the statistics (compare's n, sweep's spread and comparisons), the hit
// ratio (blank, not 0.0%) and the plots (none, not six blank ones), and
// every output says how many were left out.
func TestSessionsWithoutCalls(t *testing.T) {
	root := withEmptySession(t)
	run := func(args ...string) (string, string) {
		t.Helper()
		out, errOut, code := ctxlab(t, "", nil, args...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		return out, errOut
	}

	// compare: the same statistics as without the empty session.
	type compareDoc struct {
		SessionsWithoutCalls int `json:"sessions_without_calls"`
		Total                struct{ Sessions int }
		Comparisons          []json.RawMessage
	}
	var with, without compareDoc
	out, _ := run("compare", "--format", "json", root)
	if err := json.Unmarshal([]byte(out), &with); err != nil {
		t.Fatal(err)
	}
	out, _ = run("compare", "--format", "json", fixtures)
	if err := json.Unmarshal([]byte(out), &without); err != nil {
		t.Fatal(err)
	}
	if with.SessionsWithoutCalls != 1 || without.SessionsWithoutCalls != 0 || with.Total.Sessions != 5 || len(with.Comparisons) != len(without.Comparisons) {
		t.Fatalf("with the empty session: %d without calls, %d sessions, %d comparisons", with.SessionsWithoutCalls, with.Total.Sessions, len(with.Comparisons))
	}
	for i := range with.Comparisons {
		if string(with.Comparisons[i]) != string(without.Comparisons[i]) {
			t.Errorf("comparison %d moved with a session without calls:\n%s\n%s", i, with.Comparisons[i], without.Comparisons[i])
		}
	}
	text, _ := run("compare", "--wide", "--detail", root)
	if !strings.Contains(text, "n: sessions (1 session without a call left out: nothing to replay)") {
		t.Errorf("the comparisons do not say what they left out:\n%s", text)
	}
	_, empty, ok := strings.Cut(text, "== session "+emptySession+" ==")
	if !ok {
		t.Fatalf("no section for the empty session:\n%s", text)
	}
	for _, line := range strings.Split(empty, "\n") {
		if strings.HasPrefix(line, "| observed ") && strings.Contains(line, "0.0%") {
			t.Errorf("a hit ratio of nothing: %s", line)
		}
	}

	// replay's overview: a session without a call has no hit ratio.
	text, _ = run("replay", "--wide", root)
	for _, line := range strings.Split(text, "\n") {
		if strings.Contains(line, emptySession[:8]) && strings.Contains(line, "%") {
			t.Errorf("replay: a hit ratio of nothing: %s", line)
		}
	}

	// Plots: none for the empty session, and the count on standard error.
	dir := t.TempDir()
	_, errOut := run("compare", "--plot", dir, root)
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	for _, f := range files {
		if strings.Contains(f, emptySession[:8]) {
			t.Errorf("a plot of the session without calls: %s", f)
		}
	}
	if len(files) != 4*4+1 || !strings.Contains(errOut, "no plots for 1 session without a call") {
		t.Errorf("%d plots (want 4 sessions × 4 and the total); stderr:\n%s", len(files), errOut)
	}
	dir = t.TempDir()
	if _, errOut = run("replay", "--plot", dir, root); !strings.Contains(errOut, "no plots for 1 session without a call") {
		t.Errorf("replay --plot: %s", errOut)
	}
	if files, _ = filepath.Glob(filepath.Join(dir, emptySession[:8]+"*")); len(files) != 0 {
		t.Errorf("replay --plot drew the session without calls: %v", files)
	}

	// sweep: the spread and the comparisons over the sessions with calls;
	// the interval still bounds the total, which counts every session.
	type sweepDoc struct {
		SessionsWithoutCalls int `json:"sessions_without_calls"`
		Totals               []struct {
			Policy   string
			Sessions int
			P10      float64  `json:"objective_p10"`
			Low      *float64 `json:"objective_ci_low"`
			Cmp      struct {
				Sessions int
				Low      *float64 `json:"total_change_ci_low_pct"`
			} `json:"comparison"`
		}
	}
	var sw, sw0 sweepDoc
	args := []string{"sweep", "--format", "json", "--policy", "keep-last-n", "--vary", "n=2,8"}
	out, _ = run(append(args, root)...)
	if err := json.Unmarshal([]byte(out), &sw); err != nil {
		t.Fatal(err)
	}
	out, _ = run(append(args, fixtures)...)
	if err := json.Unmarshal([]byte(out), &sw0); err != nil {
		t.Fatal(err)
	}
	if sw.SessionsWithoutCalls != 1 || len(sw.Totals) != 2 {
		t.Fatalf("sweep: %+v", sw)
	}
	for i, tot := range sw.Totals {
		if tot.Sessions != 5 || tot.Cmp.Sessions != 4 || tot.P10 != sw0.Totals[i].P10 || tot.P10 == 0 || tot.Low == nil || *tot.Low != *sw0.Totals[i].Low {
			t.Errorf("%s: %d sessions, compared over %d, p10 %v (without the empty session %v), interval from %v", tot.Policy, tot.Sessions, tot.Cmp.Sessions, tot.P10, sw0.Totals[i].P10, tot.Low)
		}
	}
	text, _ = run("sweep", "--wide", "--policy", "keep-last-n", "--vary", "n=2,8", root)
	if !strings.Contains(text, "(lowest first) (1 session without a call left out of the percentiles and the comparisons: nothing to replay)") {
		t.Errorf("sweep does not say what it left out:\n%s", text)
	}
}

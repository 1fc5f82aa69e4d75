package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/policies"
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/report/export"
	"github.com/ctxlab/ctxlab/simulate"
)

type exportOptions struct {
	inputOptions
	sim       simOptions
	out       string
	policies  string
	overwrite bool
}

func newExportCmd(e env) *cobra.Command {
	o := &exportOptions{inputOptions: inputOptions{formats: export.Formats}}
	cmd := &cobra.Command{
		Use:   "export --out DIR [paths…]",
		Short: "Write per-call, per-message, per-session, cache-break and compaction tables as Parquet or NDJSON",
		Long: `Reads sessions as ctxlab replay does and writes their rows into DIR as
tables partitioned by project and date (DIR/calls/project=P/date=D/part-0.parquet),
for DuckDB, Spark, BigQuery or ClickHouse: calls, messages, sessions,
cache_breaks, compactions and, with --policy, simulated_calls. Each file is
written whole or not at all; DIR/ctxlab-export.json lists the tables.
docs/export.md gives every column and queries that reproduce ctxlab's totals.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.paths = args
			return runExport(o, e)
		},
	}
	f := cmd.Flags()
	o.addFlags(f)
	o.sim.addFlags(f)
	f.StringVarP(&o.out, "out", "o", "", "folder to write the tables into (created if missing)")
	f.StringVar(&o.policies, "policy", "", "comma-separated policy specs: add the simulated_calls table, each session replayed under each")
	f.BoolVar(&o.overwrite, "overwrite", false, "write into a folder that holds files but no previous export")
	return cmd
}

func runExport(o *exportOptions, e env) error {
	if err := o.validate(e); err != nil {
		return err
	}
	if o.out == "" {
		return usageError("--out DIR is required")
	}
	if o.policies != "" {
		if _, err := policies.ParseList(o.policies); err != nil {
			return usageError("--policy: %v", err)
		}
	}
	su, err := prepare(&o.inputOptions, &o.sim, &plotOptions{}, e)
	if err != nil {
		return err
	}
	w, err := export.Create(o.out, export.Options{Format: o.format, Overwrite: o.overwrite})
	if errors.Is(err, export.ErrNotExport) {
		return usageError("--out %v", err)
	}
	if err != nil {
		return &exitError{code: exitInput, err: fmt.Errorf("--out %s: %w", o.out, err)}
	}
	l := &loaded[*export.Rows]{}
	var writeErr error
	err = l.each(&o.inputOptions, e, su.in, func(i int, s *replay.Session) *export.Rows {
		return exportSession(i, s, o, su)
	}, func(r *export.Rows) {
		if writeErr == nil {
			writeErr = w.Add(r)
		}
	})
	if err != nil {
		return err
	}
	var m *export.Manifest
	if writeErr == nil {
		m, writeErr = w.Close()
	}
	if writeErr != nil {
		return &exitError{code: exitInput, err: fmt.Errorf("writing export: %w", writeErr)}
	}
	fmt.Fprintf(e.stderr, "wrote %d sessions to %s:", m.Sessions, o.out)
	for i, t := range m.Tables {
		sep := ","
		if i == 0 {
			sep = ""
		}
		fmt.Fprintf(e.stderr, "%s %s %d rows (%d files)", sep, t.Name, t.Rows, t.Files)
	}
	fmt.Fprintln(e.stderr)
	return l.finish(&o.inputOptions, nil)
}

// exportSession builds a session's rows on the worker: its report and,
// under --policy, its runs (policies compiled afresh for each session, as
// a policy may keep state across a run's calls).
func exportSession(i int, s *replay.Session, o *exportOptions, su *setup) *export.Rows {
	rep := accounting.Analyze(s, su.cfg)
	var runs []*simulate.Result
	if o.policies != "" {
		runs, _ = policies.RunList(simulate.Prepare(s), o.policies, su.simCfg) // validated in runExport
	}
	return export.Build(i, s, rep, runs, su.cfg.Prices)
}

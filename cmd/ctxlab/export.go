package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/ctxlab/ctxlab/internal/batch"
	"github.com/ctxlab/ctxlab/policies"
	"github.com/ctxlab/ctxlab/report/export"
)

type exportOptions struct {
	inputOptions
	out       string
	policies  string
	overwrite bool
}

func newExportCmd(e env) *cobra.Command {
	o := &exportOptions{inputOptions: inputOptions{outputOptions: outputOptions{formats: export.Formats}}}
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
	var ps []policies.Compiled
	if o.policies != "" {
		var err error
		if ps, err = policies.CompileList(o.policies); err != nil {
			return usageError("--policy: %v", err)
		}
	}
	in, bo, err := o.start(nil, e)
	if err != nil {
		return err
	}
	bo.Part = nil // a shard writes its own files of the tables (export.Options.Shard)
	w, err := export.Create(o.out, export.Options{Format: o.format, Overwrite: o.overwrite, Shard: o.part.FileName()})
	if errors.Is(err, export.ErrNotExport) {
		return usageError("--out %v", err)
	}
	if err != nil {
		return failed(fmt.Errorf("--out %s: %w", o.out, err))
	}
	_, out, err := batch.Export(in, bo, ps, w, o.out)
	return o.finish(out, err)
}

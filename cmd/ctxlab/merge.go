package main

import (
	"github.com/spf13/cobra"

	"github.com/ctxlab/ctxlab/internal/batch"
	"github.com/ctxlab/ctxlab/internal/cliflag"
)

func newMergeCmd(e env) *cobra.Command {
	return &cobra.Command{
		Use:   "merge PART…",
		Short: "Merge the parts of a sharded run (--shard K/N) into the output one run would write",
		Long: `Reads the parts that replay, compare, sweep or gate wrote under --shard K/N,
one for each K of N, in any order, checks that they were made by this build
with the same flags, prices and input, and writes what the command would
have written over the whole input, in the format and with the plots and
exit code its flags ask for. docs/scale.md shows sharded runs on
Kubernetes, GitHub Actions and Slurm.`,
		RunE: func(_ *cobra.Command, names []string) error {
			m, err := batch.ReadParts(names, func(name string) ([]byte, error) { return cliflag.ReadFile("", name) })
			if err != nil {
				return usageError("merge: %v", err)
			}
			e.parts = m
			args := append(append([]string{m.Header.Command}, m.Header.Args...), "--")
			if code := run(append(args, m.Header.Paths...), e); code != exitOK {
				return &exitError{code: code}
			}
			return nil
		},
	}
}

package main

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// codeBlocks are the fenced code blocks of a Markdown file, by language.
func codeBlocks(t *testing.T, path string) map[string][]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, m := range regexp.MustCompile("(?ms)^```(\\w*)\n(.*?)^```").FindAllStringSubmatch(string(b), -1) {
		out[m[1]] = append(out[m[1]], m[2])
	}
	return out
}

// yamlDocs decodes every YAML document of the blocks.
func yamlDocs(t *testing.T, blocks []string) []map[string]any {
	t.Helper()
	var docs []map[string]any
	for _, b := range blocks {
		dec := yaml.NewDecoder(strings.NewReader(b))
		for {
			var d map[string]any
			if err := dec.Decode(&d); err != nil {
				if err.Error() != "EOF" {
					t.Fatalf("docs/scale.md: %v in\n%s", err, b)
				}
				break
			}
			docs = append(docs, d)
		}
	}
	return docs
}

// at walks a decoded YAML document by keys and list indexes.
func at(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			l, _ := v.([]any)
			if k >= len(l) {
				return nil
			}
			v = l[k]
		}
	}
	return v
}

// shardOf finds --shard EXPR/N in a command line, the N.
func shardOf(t *testing.T, cmd, expr string) int {
	t.Helper()
	m := regexp.MustCompile(`--shard "?` + regexp.QuoteMeta(expr) + `/(\d+)"?`).FindStringSubmatch(cmd)
	if m == nil {
		t.Fatalf("no --shard %s/N in %q", expr, cmd)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// docs/scale.md's Kubernetes manifest, GitHub Actions workflow and Slurm
// script shard one run as ctxlab takes it and merge the parts: the
// fields that matter are checked so that the page cannot drift.
func TestScaleExamples(t *testing.T) {
	blocks := codeBlocks(t, "../../docs/scale.md")
	docs := yamlDocs(t, blocks["yaml"])
	var indexed, merge, workflow map[string]any
	for _, d := range docs {
		switch {
		case d["kind"] == "Job" && at(d, "spec", "completionMode") == "Indexed":
			indexed = d
		case d["kind"] == "Job":
			merge = d
		case d["jobs"] != nil:
			workflow = d
		}
	}
	if indexed == nil || merge == nil || workflow == nil {
		t.Fatalf("docs/scale.md: want an Indexed Job, a merge Job and a workflow; found %d YAML documents", len(docs))
	}
	// Kubernetes: completions and parallelism are the N of --shard, K is
	// the 0-based index plus one, and the merge Job merges the parts.
	container := func(job map[string]any) string {
		c := at(job, "spec", "template", "spec", "containers", 0)
		return fmt.Sprint(at(c, "command"), at(c, "args"))
	}
	n := shardOf(t, container(indexed), "$((JOB_COMPLETION_INDEX+1))")
	if at(indexed, "spec", "completions") != n || at(indexed, "spec", "parallelism") != n {
		t.Errorf("Indexed Job: completions %v, parallelism %v; --shard's N is %d", at(indexed, "spec", "completions"), at(indexed, "spec", "parallelism"), n)
	}
	if !strings.Contains(container(indexed), "part-$JOB_COMPLETION_INDEX.json") || !strings.Contains(container(merge), "ctxlab merge /data/parts/part-*.json") {
		t.Errorf("the shards' parts and the merge's do not match:\n%s\n%s", container(indexed), container(merge))
	}
	// GitHub Actions: the matrix is 1..N, and the merge job needs it.
	var shardJob, mergeJob string
	for name, job := range at(workflow, "jobs").(map[string]any) {
		runs := fmt.Sprint(at(job, "steps"))
		switch {
		case strings.Contains(runs, "--shard ${{ matrix.shard }}/"):
			shardJob = name
			n := shardOf(t, runs, "${{ matrix.shard }}")
			var want []any
			for k := 1; k <= n; k++ {
				want = append(want, k)
			}
			if got, _ := at(job, "strategy", "matrix", "shard").([]any); !slices.Equal(got, want) {
				t.Errorf("workflow: matrix.shard %v, want %v for --shard K/%d", got, want, n)
			}
		case strings.Contains(runs, "ctxlab merge part-*.json"):
			mergeJob = name
		}
	}
	if shardJob == "" || mergeJob == "" || at(workflow, "jobs", mergeJob, "needs") != shardJob {
		t.Errorf("workflow: shard job %q, merge job %q that needs %v", shardJob, mergeJob, at(workflow, "jobs", mergeJob, "needs"))
	}
	// Slurm: --array=1-N is K, and the merge waits for the array.
	sh := strings.Join(blocks["sh"], "\n")
	m := regexp.MustCompile(`#SBATCH --array=1-(\d+)`).FindStringSubmatch(sh)
	if m == nil || strconv.Itoa(shardOf(t, sh, "${SLURM_ARRAY_TASK_ID}")) != m[1] {
		t.Errorf("Slurm: --array %v and --shard ${SLURM_ARRAY_TASK_ID}/N disagree", m)
	}
	if !regexp.MustCompile(`--dependency=afterok:"\$shards" --wrap 'ctxlab merge /shared/parts/part-\*\.json`).MatchString(sh) {
		t.Errorf("Slurm: no merge after the array")
	}
}

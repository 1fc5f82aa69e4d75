package export

import (
	"bufio"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/parquet-go/parquet-go"

	"github.com/ctxlab/ctxlab/internal/atomicfile"
)

// The formats Writer writes.
const (
	FormatParquet = "parquet"
	FormatNDJSON  = "ndjson"
)

// Formats lists them, the default first.
var Formats = []string{FormatParquet, FormatNDJSON}

// The tables, in the manifest's order. Each is a folder of the export.
const (
	TableCalls       = "calls"
	TableMessages    = "messages"
	TableSessions    = "sessions"
	TableCacheBreaks = "cache_breaks"
	TableCompactions = "compactions"
	TableSimCalls    = "simulated_calls"
)

// Tables lists every table an export can hold.
var Tables = []string{TableCalls, TableMessages, TableSessions, TableCacheBreaks, TableCompactions, TableSimCalls}

// ManifestName is the manifest's file name in the export's folder; its
// presence marks the folder as an export.
const ManifestName = "ctxlab-export.json"

// SchemaName is the manifest's schema.
const SchemaName = "ctxlab.export"

// DefaultPartition is the partition value of a row without a project
// (standard input) or without a time: Hive's name for a null partition.
const DefaultPartition = "__HIVE_DEFAULT_PARTITION__"

// ErrNotExport is returned by Create for a folder that holds files but no
// export, unless Options.Overwrite is set.
var ErrNotExport = errors.New("not empty and not a ctxlab export (--overwrite writes into it anyway)")

// Manifest describes an export: written first with Complete false, and
// again when every partition is written.
type Manifest struct {
	Schema   string      `json:"schema"`
	Version  int         `json:"version"`
	Format   string      `json:"format"`
	Complete bool        `json:"complete"`
	Sessions int         `json:"sessions"`
	Tables   []TableInfo `json:"tables"`
}

// TableInfo counts a table's rows and files.
type TableInfo struct {
	Name  string `json:"name"`
	Rows  int64  `json:"rows"`
	Files int    `json:"files"`
}

// Options configure a Writer. A zero bound is its default.
type Options struct {
	Format string // FormatParquet (default) or FormatNDJSON
	// Overwrite allows a folder that holds other files.
	Overwrite bool
	// Shard names one shard of a sharded export ("2-of-3", from --shard
	// 2/3; "": not sharded). Every shard writes into the same folder, and
	// its files together with the other shards' are the one table: its
	// data files are named shard-2-of-3-part-N, its manifest
	// ctxlab-export-shard-2-of-3.json, so no two shards write one file,
	// and it removes only its own files of a previous export.
	Shard string
	// PartitionRows: a partition's buffered rows are written as one
	// file (part-0, part-1, …) when they reach this many
	// (DefaultPartitionRows).
	PartitionRows int
	// BufferedRows bounds the rows buffered over all partitions: past it
	// the largest partitions are written until half remain
	// (DefaultBufferedRows).
	BufferedRows int
}

// The default bounds: a row is a few hundred bytes, so the buffers stay
// near 50 MB.
const (
	DefaultPartitionRows = 100_000
	DefaultBufferedRows  = 200_000
)

// Writer writes sessions' rows into an export folder. Add buffers rows by
// table, project and date; a partition's file is written when its buffer
// fills, and Close writes the rest and completes the manifest. The files
// depend only on the rows added and their order.
type Writer struct {
	dir      string
	opt      Options
	parts    map[partKey]*partition
	buffered int
	sessions int
	info     map[string]*TableInfo
	// What Abort removes: the folders Create made (deepest first), and
	// the manifest unless a previous export's was there.
	created     []string
	hadManifest bool
}

type partKey struct{ table, project, date string }

// partition is one table's rows for one project and date, not yet written.
type partition struct {
	key  partKey
	next int // number of the next file
	rows buffer
}

// buffer holds a partition's rows of one table.
type buffer interface {
	len() int
	write(w io.Writer, format string) error
	reset() // lets the written rows go
}

// Create prepares dir for an export: it creates it, refuses one that holds
// files but no export (unless opt.Overwrite), removes a previous export's
// tables and writes an incomplete manifest, so that a folder that cannot be
// written fails before any session is read. Errors name the folder. A run
// that fails calls Abort.
func Create(dir string, opt Options) (*Writer, error) {
	if opt.Format == "" {
		opt.Format = FormatParquet
	}
	if !slices.Contains(Formats, opt.Format) {
		return nil, fmt.Errorf("format %q: want one of %s", opt.Format, strings.Join(Formats, ", "))
	}
	if opt.PartitionRows <= 0 {
		opt.PartitionRows = DefaultPartitionRows
	}
	if opt.BufferedRows <= 0 {
		opt.BufferedRows = DefaultBufferedRows
	}
	created, err := atomicfile.MkdirAll(dir)
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	if len(entries) > 0 && !isExport(entries) && !opt.Overwrite {
		return nil, fmt.Errorf("%s: %w", dir, ErrNotExport)
	}
	if err := removeFiles(dir, opt.Shard); err != nil {
		return nil, err
	}
	_, statErr := os.Stat(filepath.Join(dir, manifestName(opt.Shard)))
	w := &Writer{dir: dir, opt: opt, parts: map[partKey]*partition{}, info: map[string]*TableInfo{}, created: created, hadManifest: statErr == nil}
	for _, t := range Tables {
		w.info[t] = &TableInfo{Name: t}
	}
	if err := w.writeManifest(false); err != nil {
		return nil, err
	}
	return w, nil
}

// Add buffers one session's rows, writing the partitions that fill.
func (w *Writer) Add(r *Rows) error {
	w.sessions++
	project := partitionValue(r.Project)
	for _, err := range []error{
		add(w, TableCalls, project, r.Calls, func(c *Call) *Millis { return c.Time }),
		add(w, TableMessages, project, r.Messages, func(m *Message) *Millis { return m.Time }),
		add(w, TableSessions, project, r.Sessions, func(s *Session) *Millis { return s.Start }),
		add(w, TableCacheBreaks, project, r.CacheBreaks, func(b *CacheBreak) *Millis { return b.Time }),
		add(w, TableCompactions, project, r.Compactions, func(c *Compaction) *Millis { return c.Time }),
		add(w, TableSimCalls, project, r.SimCalls, func(c *SimCall) *Millis { return c.Time }),
	} {
		if err != nil {
			return err
		}
	}
	if w.buffered <= w.opt.BufferedRows {
		return nil
	}
	// Too much buffered: write the largest partitions (ties in path
	// order, so the files do not depend on map order) until half is left.
	parts := w.pending()
	slices.SortStableFunc(parts, func(a, b *partition) int { return cmp.Compare(b.rows.len(), a.rows.len()) })
	for _, p := range parts {
		if w.buffered <= w.opt.BufferedRows/2 {
			break
		}
		if err := w.flush(p); err != nil {
			return err
		}
	}
	return nil
}

// Close writes every buffered partition and completes the manifest,
// which it returns.
func (w *Writer) Close() (*Manifest, error) {
	// The partitions are independent files: written on every core.
	parts := w.pending()
	errs := make([]error, len(parts))
	next := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				errs[i] = w.write(parts[i])
			}
		}()
	}
	for i := range parts {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, p := range parts {
		if errs[i] != nil {
			return nil, errs[i]
		}
		w.written(p)
	}
	if err := w.writeManifest(true); err != nil {
		return nil, err
	}
	return w.manifest(true), nil
}

// Abort removes what this export wrote, after a failed run: its tables
// (Create removed a previous export's), its manifest when none was there
// before (a previous export's stays, marked incomplete, since its tables
// are gone), and the folders Create made, when they are left empty.
// Nothing that was in the folder before, other than a previous export's
// tables, is touched.
func (w *Writer) Abort() error {
	errs := []error{removeFiles(w.dir, w.opt.Shard)} // under a shard, its own files alone
	if !w.hadManifest {
		if err := os.Remove(filepath.Join(w.dir, manifestName(w.opt.Shard))); !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	atomicfile.RemoveEmpty(w.created)
	return errors.Join(errs...)
}

// pending returns the partitions holding rows, in path order.
func (w *Writer) pending() []*partition {
	var out []*partition
	for _, p := range w.parts {
		if p.rows.len() > 0 {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b *partition) int {
		return cmp.Or(cmp.Compare(a.key.table, b.key.table), cmp.Compare(a.key.project, b.key.project), cmp.Compare(a.key.date, b.key.date))
	})
	return out
}

// rowsOf is a partition's buffer of one table's rows.
type rowsOf[T any] struct{ rows []T }

func (r *rowsOf[T]) len() int { return len(r.rows) }
func (r *rowsOf[T]) reset()   { r.rows = nil }

func (r *rowsOf[T]) write(w io.Writer, format string) error {
	bw := bufio.NewWriterSize(w, 256<<10)
	if err := r.encode(bw, format); err != nil {
		return err
	}
	return bw.Flush()
}

func (r *rowsOf[T]) encode(w io.Writer, format string) error {
	if format == FormatNDJSON {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		for i := range r.rows {
			if err := enc.Encode(&r.rows[i]); err != nil {
				return err
			}
		}
		return nil
	}
	pw := parquet.NewGenericWriter[T](w,
		parquet.Compression(&parquet.Snappy),
		parquet.CreatedBy("ctxlab", "", ""),
		parquet.KeyValueMetadata("ctxlab.schema_version", fmt.Sprint(SchemaVersion)),
	)
	if _, err := pw.Write(r.rows); err != nil {
		return err
	}
	return pw.Close()
}

// add buffers rows of one table under their partitions, and writes a
// partition that reaches the bound.
func add[T any](w *Writer, table, project string, rows []T, when func(*T) *Millis) error {
	for i := range rows {
		date := DefaultPartition
		if t := when(&rows[i]); t != nil {
			date = time.UnixMilli(int64(*t)).UTC().Format("2006-01-02")
		}
		k := partKey{table, project, date}
		p := w.parts[k]
		if p == nil {
			p = &partition{key: k, rows: &rowsOf[T]{}}
			w.parts[k] = p
		}
		buf := p.rows.(*rowsOf[T])
		buf.rows = append(buf.rows, rows[i])
		w.buffered++
		if len(buf.rows) >= w.opt.PartitionRows {
			if err := w.flush(p); err != nil {
				return err
			}
		}
	}
	return nil
}

// flush writes a partition's buffered rows as its next file, atomically.
func (w *Writer) flush(p *partition) error {
	if err := w.write(p); err != nil {
		return err
	}
	w.written(p)
	return nil
}

// write writes a partition's buffered rows as its next file, atomically;
// it changes nothing in w, so partitions can be written in parallel.
func (w *Writer) write(p *partition) error {
	ext := ".parquet"
	if w.opt.Format == FormatNDJSON {
		ext = ".ndjson"
	}
	path := filepath.Join(w.dir, p.key.table, "project="+p.key.project, "date="+p.key.date, fmt.Sprintf("%spart-%d%s", w.prefix(), p.next, ext))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(path, func(f io.Writer) error { return p.rows.write(f, w.opt.Format) })
}

// written counts a partition's rows as written and empties its buffer.
func (w *Writer) written(p *partition) {
	n := p.rows.len()
	w.buffered -= n
	info := w.info[p.key.table]
	info.Rows += int64(n)
	info.Files++
	p.next++
	p.rows.reset()
}

func (w *Writer) manifest(complete bool) *Manifest {
	m := &Manifest{Schema: SchemaName, Version: SchemaVersion, Format: w.opt.Format, Complete: complete, Sessions: w.sessions}
	for _, t := range Tables {
		m.Tables = append(m.Tables, *w.info[t])
	}
	return m
}

func (w *Writer) writeManifest(complete bool) error {
	data, err := json.MarshalIndent(w.manifest(complete), "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(filepath.Join(w.dir, manifestName(w.opt.Shard)), append(data, '\n'))
}

// prefix begins the name of each data file of the export's shard.
func (w *Writer) prefix() string {
	if w.opt.Shard == "" {
		return ""
	}
	return "shard-" + w.opt.Shard + "-"
}

// manifestName is the manifest's name of a shard's export.
func manifestName(shard string) string {
	if shard == "" {
		return ManifestName
	}
	return strings.TrimSuffix(ManifestName, ".json") + "-shard-" + shard + ".json"
}

// isExport reports whether a folder's entries hold an export's manifest,
// a shard's or the whole export's.
func isExport(entries []fs.DirEntry) bool {
	stem := strings.TrimSuffix(ManifestName, ".json")
	return slices.ContainsFunc(entries, func(e fs.DirEntry) bool {
		n := e.Name()
		return n == ManifestName || strings.HasPrefix(n, stem+"-shard-") && strings.HasSuffix(n, ".json")
	})
}

// removeFiles removes a previous export's tables: all of them, or under a
// shard the shard's own files, which other shards writing into the folder
// at the same time leave alone.
func removeFiles(dir, shard string) error {
	for _, t := range Tables {
		if shard == "" {
			if err := os.RemoveAll(filepath.Join(dir, t)); err != nil {
				return err
			}
			continue
		}
		prefix := "shard-" + shard + "-part-"
		err := filepath.WalkDir(filepath.Join(dir, t), func(path string, d fs.DirEntry, err error) error {
			switch {
			case errors.Is(err, fs.ErrNotExist):
				return nil
			case err != nil:
				return err
			case !d.IsDir() && strings.HasPrefix(d.Name(), prefix):
				return os.Remove(path)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// partitionValue writes a project as a Hive partition value: characters
// other than letters, digits, '.', '_' and '-' as %XX (Hive's escaping),
// and "" as DefaultPartition. A value that would make its folder's name
// ("project=" and it) longer than file systems allow (255 bytes) is cut
// to fit and ends in '~' and eight hex digits of the whole name's FNV-1a
// hash: '~' is escaped in any value not cut, so a cut one cannot pass for
// another project, and two long names that share their start stay apart.
func partitionValue(s string) string {
	if s == "" {
		return DefaultPartition
	}
	if v, whole := hiveEscape(s, maxPartitionValue); whole {
		return v
	}
	v, _ := hiveEscape(s, maxPartitionValue-len("~01234567"))
	h := fnv.New32a()
	h.Write([]byte(s))
	return fmt.Sprintf("%s~%08x", v, h.Sum32())
}

// hiveEscape escapes s as Hive does, stopping before the character whose
// escape would pass limit bytes, and reports whether all of s fit.
func hiveEscape(s string, limit int) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); {
		_, n := utf8.DecodeRuneInString(s[i:])
		mark := b.Len()
		for _, c := range []byte(s[i : i+n]) {
			if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-' {
				b.WriteByte(c)
			} else {
				fmt.Fprintf(&b, "%%%02X", c)
			}
		}
		if b.Len() > limit {
			return b.String()[:mark], false
		}
		i += n
	}
	return b.String(), true
}

// maxPartitionValue is the longest project value whose folder name
// ("project=" and the value) fits the 255 bytes file systems allow.
const maxPartitionValue = 255 - len("project=")

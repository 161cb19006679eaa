// Command asm generates assembly of the kernel package with avo, where
// kernels differ only in their sizes or their vector width: one
// description writes every variant. It runs from the kernel package with
// go generate, one file a run (-kernels names the file's set):
//
//	cd kernel && go generate -run asm .
//
// The registers are chosen here, not by avo's allocator, so that the
// generated instructions are the ones a hand-written file would hold.
//
// To add a set: a function that writes its kernels (TEXT, then the
// instructions; tailMaskData first if an AVX2 tail uses the mask table),
// its name in sets, a go:generate line in kernel/kernel_amd64.go and its
// row in docs/architecture.md ("Where to add"). CI regenerates every file
// and fails where one differs from the committed one.
package main

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"

	. "github.com/mmcloughlin/avo/build"
)

// sets are the files this command writes, by the name -kernels takes.
var sets = map[string]func(){
	"rows":           rowTiles,
	"vectors":        vectors,
	"outer":          outer,
	"dotrows":        dotRows,
	"panels_avx2":    panelsAVX2,
	"panels_avx512":  panelsAVX512,
	"lowrank_avx512": lowRankAVX512,
	"lowrank_avx2":   lowRankAVX2,
	"small_avx512":   smallAVX512,
}

func main() {
	names := slices.Sorted(func(yield func(string) bool) {
		for name := range sets {
			if !yield(name) {
				return
			}
		}
	})
	set := flag.String("kernels", "", "the set of kernels to write: one of "+strings.Join(names, ", "))
	flag.Parse()
	write, ok := sets[*set]
	if !ok {
		fmt.Fprintf(os.Stderr, "asm: -kernels %q: want one of %s\n", *set, strings.Join(names, ", "))
		os.Exit(2)
	}
	ConstraintExpr("gc,!purego")
	write()
	Generate()
}

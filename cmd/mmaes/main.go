// Command mmaes runs MMA-ES optimizations, reproduces the experiments of the
// paper it implements (Li & Zhang, "A Simple Yet Efficient Rank One Update
// for Covariance Matrix Adaptation") with figures, and compares the library
// with gonum's CmaEsChol.
//
// Usage:
//
//	mmaes run     [-f ell] [-n 128] [-update mma|ecma|cholesky] [-seed S] ...
//	mmaes paper   [-dims 2,4,8,16,32,64] [-runs 21] [-out DIR]
//	mmaes compare [-dims 4,8,16] [-runs 5]
//	mmaes compare large (= mmaes largescale)
//	mmaes bench   [-dims 16,64,256,1024,4096] (OpenBLAS column: go run -tags openblas .)
//	mmaes largescale [-dims 1000] [-runs 5] [-opts lmmaes,sepcma,lmma] [-budget-per-n 1000]
//	mmaes coordinate [-nats URL] [-run ID] [-f ell] [-n 16] [-deadline 0] [-fresh]
//	mmaes work       [-nats URL] [-run ID] [-f ell] [-delay 0] [-workers 1] [-idle 0]
//
// It lives in its own module so that the library stays free of dependencies.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// command is one subcommand: its flags are parsed from args, output goes to
// stdout and diagnostics to stderr.
type command struct {
	name, summary string
	run           func(args []string, stdout, stderr io.Writer) error
}

var commands = []command{
	{"run", "run one optimization of a test function, with live progress", runCmd},
	{"paper", "reproduce the paper's experiments: tables, CSV and figures", paperCmd},
	{"compare", "compare with gonum's optimize.CmaEsChol", compareCmd},
	{"bench", "time a generation against the roofline, OpenBLAS and gonum", benchCmd},
	{"bbob", "run configurations on COCO's bbob suite: COCO data, summary, ECDF plots", bbobCmd},
	{"largescale", "LM-MA-ES, sep-CMA-ES and the library on a large-scale suite (n = 10³…10⁵)", largescaleCmd},
	{"coordinate", "coordinate a distributed run over NATS JetStream (resumes from its checkpoint)", coordinateCmd},
	{"work", "evaluate a distributed run's tasks from NATS JetStream", workCmd},
}

// errUsage marks an error caused by the command line: main prints the usage
// and exits with status 2.
var errUsage = errors.New("usage")

func main() {
	os.Exit(mainExit(os.Args[1:], os.Stdout, os.Stderr))
}

// mainExit runs the command line args and returns the exit status: 0 on
// success, 1 when the command failed, 2 for a bad command line.
func mainExit(args []string, stdout, stderr io.Writer) int {
	name := "run" // `mmaes` alone, or with flags only, is `mmaes run`
	if len(args) > 0 && (!strings.HasPrefix(args[0], "-") || isHelp(args[0])) {
		name, args = args[0], args[1:]
	}
	if isHelp(name) || name == "help" {
		usage(stderr)
		return 0
	}
	for _, c := range commands {
		if c.name != name {
			continue
		}
		err := c.run(args, stdout, stderr)
		switch {
		case err == nil:
			return 0
		case errors.Is(err, flag.ErrHelp):
			return 0
		case errors.Is(err, errUsage):
			fmt.Fprintf(stderr, "mmaes %s: %v\n", name, err)
			fmt.Fprintf(stderr, "run 'mmaes %s -h' for its flags\n", name)
			return 2
		default:
			fmt.Fprintf(stderr, "mmaes %s: %v\n", name, err)
			return 1
		}
	}
	fmt.Fprintf(stderr, "mmaes: unknown command %q\n\n", name)
	usage(stderr)
	return 2
}

// isHelp reports whether arg asks for help.
func isHelp(arg string) bool { return arg == "-h" || arg == "-help" || arg == "--help" }

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: mmaes <command> [flags]")
	fmt.Fprintln(w, "\ncommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\n'mmaes <command> -h' lists a command's flags; 'mmaes' alone is 'mmaes run'.")
}

// newFlagSet returns a flag set that reports errors instead of exiting and
// prints its defaults to stderr.
func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("mmaes "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// parseFlags parses args and rejects positional arguments; a parse error is
// a usage error, reported in one line by the caller (the flag set itself
// prints the defaults only for -h).
func parseFlags(fs *flag.FlagSet, args []string) error {
	out, usage := fs.Output(), fs.Usage
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	err := fs.Parse(args)
	fs.SetOutput(out)
	fs.Usage = usage
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			if usage != nil {
				usage()
			} else {
				fmt.Fprintf(out, "Usage of %s:\n", fs.Name())
				fs.PrintDefaults()
			}
			return err
		}
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	return nil
}

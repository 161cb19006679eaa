package mmaes

import "errors"

// Sentinel errors. Errors returned by this package wrap one of them, so test
// with errors.Is. Errors from New wrap ErrInvalidConfig inside a *ConfigError
// that names the field.
var (
	// ErrInvalidConfig is wrapped by every error New returns.
	ErrInvalidConfig = errors.New("mmaes: invalid config")

	// ErrNotInitialized is returned by the methods of an Optimizer that was
	// neither made by New nor restored by UnmarshalBinary.
	ErrNotInitialized = errors.New("mmaes: optimizer not initialized (use New)")

	// ErrLength is returned for a slice of the wrong length: Tell's fitness
	// not λ values, TellSome's indices and values of different lengths,
	// Inject's point not Dim. (A sentinel without the lengths: a rejected
	// call allocates nothing.)
	ErrLength = errors.New("mmaes: wrong length: Tell needs Lambda() values, TellSome as many values as indices, Inject Dim() coordinates")

	// ErrIndex is returned by TellSome for an index outside [0, λ) or
	// given twice.
	ErrIndex = errors.New("mmaes: TellSome: candidate index out of range or repeated")

	// ErrNotAsked is returned by Tell and TellSome when no Ask precedes
	// them (a second Tell for one Ask included).
	ErrNotAsked = errors.New("mmaes: Tell or TellSome without a preceding Ask")

	// ErrStopped is wrapped by the error Tell returns after the run stopped;
	// the error's text names the stop reason, and Optimizer.Reason returns it.
	ErrStopped = errors.New("mmaes: run stopped")

	// ErrBreakdown is wrapped by the error of a run that stopped because its
	// state would have become non-finite or degenerate (Reason
	// NumericalBreakdown).
	ErrBreakdown = errors.New("mmaes: numerical breakdown")

	// ErrAllNaN is wrapped by the error of a run that stopped because every
	// fitness value of a generation was NaN (Reason AllNaN).
	ErrAllNaN = errors.New("mmaes: every fitness value of the generation is NaN")

	// ErrNilObjective is returned by Optimize when f is nil.
	ErrNilObjective = errors.New("mmaes: Optimize: nil objective")

	// ErrCheckpoint is wrapped by every error UnmarshalBinary returns: the
	// input is truncated, corrupted, of another version or not a checkpoint.
	ErrCheckpoint = errors.New("mmaes: invalid checkpoint")
)

// A ConfigError is the error New returns for an invalid Config. It names the
// field and unwraps to ErrInvalidConfig.
type ConfigError struct {
	Field string // the Config field, such as "Sigma" or "Mean[3]"
	Msg   string // what is wrong with it
}

func (e *ConfigError) Error() string {
	return "mmaes: invalid config: " + e.Field + ": " + e.Msg
}

// Unwrap returns ErrInvalidConfig.
func (e *ConfigError) Unwrap() error { return ErrInvalidConfig }

// stopError is the error of a stopped run. The values are built once, in
// stopErrs, so that Tell returns them without allocating.
type stopError struct{ r Reason }

func (e *stopError) Error() string { return "mmaes: run stopped: " + e.r.String() }

// Is reports ErrStopped for every stop, and ErrBreakdown or ErrAllNaN for
// the failures they name.
func (e *stopError) Is(target error) bool {
	switch target {
	case ErrStopped:
		return true
	case ErrBreakdown:
		return e.r == NumericalBreakdown
	case ErrAllNaN:
		return e.r == AllNaN
	}
	return false
}

var stopErrs = func() (errs [numReasons]error) {
	for r := range errs {
		errs[r] = &stopError{Reason(r)}
	}
	return errs
}()

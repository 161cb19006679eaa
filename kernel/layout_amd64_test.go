//go:build gc && !purego

package kernel

import (
	"testing"
	"unsafe"
)

// TestStepLayout checks the offsets the assembly of RecombineStep and
// SamplePlace reads StepState, StepRates and RankOne at
// (recombine_avx512_amd64.s; mulvecs_small_avx512_amd64.s, whose generator
// kernel/_asm names RankOne's offsets rankOneAlpha … rankOneV).
func TestStepLayout(t *testing.T) {
	var st StepState
	var r StepRates
	var u RankOne
	got := []uintptr{
		unsafe.Offsetof(st.M), unsafe.Offsetof(st.S), unsafe.Offsetof(st.V), unsafe.Offsetof(st.P),
		unsafe.Offsetof(st.MNew), unsafe.Offsetof(st.SNew), unsafe.Offsetof(st.VNew), unsafe.Offsetof(st.PNew),
		unsafe.Offsetof(st.YW), unsafe.Offsetof(st.ZW),
		unsafe.Offsetof(r.Sigma), unsafe.Offsetof(r.DecayS), unsafe.Offsetof(r.RateS), unsafe.Offsetof(r.Decay), unsafe.Offsetof(r.Rate),
		unsafe.Offsetof(u.Alpha), unsafe.Offsetof(u.Beta), unsafe.Offsetof(u.P), unsafe.Offsetof(u.V),
	}
	want := []uintptr{0, 24, 48, 72, 96, 120, 144, 168, 192, 216, 0, 8, 16, 24, 32, 0, 8, 16, 40}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("offset %d is %d, the assembly reads %d", i, got[i], want[i])
		}
	}
}

package mmaes

import "math"

// exp returns e^x to within one ulp, for |x| ≤ expFastMax with the same
// bits on every platform and kernel path: it uses only math.FMA, roundings
// Go may not fuse, and a table, where math.Exp is assembly on amd64 and
// arm64 whose results may differ in the last bit. It has fewer dependent
// steps than math.Exp's amd64 assembly, which matters where σ's update
// waits for it at small n. Outside |x| ≤ expFastMax (and for NaN and ±Inf) it returns
// math.Exp(x): results there are near overflow or subnormal.
//
// The method is Tang's: x = k·ln2/64 + r with |r| ≤ ln2/128 and k = 64·e + j,
// so e^x = 2^e · 2^(j/64) · e^r with 2^(j/64) = t_hi + t_lo from expTable,
// ln2/64 in two parts of which the first times k is exact, and e^r − 1 = p
// by its Taylor polynomial of degree 6 (r^7/7! < 2^-60 relative). The sum
// t_hi + (t_hi·p + t_lo) is rounded once at the end beside a term below
// 1/180 of it, so the result is within ½ ulp and about a hundredth of e^x:
// correctly rounded but where e^x lies that close to a midpoint between
// two float64 values.
func exp(x float64) float64 {
	if !(math.Abs(x) <= expFastMax) {
		return math.Exp(x)
	}
	kf := math.RoundToEven(float64(x * expInvLn2))
	k := int64(kf)
	r := math.FMA(-kf, expLn2Hi, x)
	r = math.FMA(-kf, expLn2Lo, r)
	r2 := float64(r * r)
	q := math.FMA(r2, math.FMA(r2, 1.0/720, math.FMA(r, 1.0/120, 1.0/24)), math.FMA(r, 1.0/6, 0.5))
	p := math.FMA(r2, q, r)
	t := &expTable[k&63]
	y := math.FMA(t[0], p, t[1]) + t[0]
	return math.Float64frombits(math.Float64bits(y) + uint64(k>>6)<<52)
}

const (
	// expFastMax bounds the arguments exp computes itself: e^x and
	// e^-x are normal numbers with room for the last step's scaling.
	expFastMax = 700
	// expInvLn2 is 64/ln 2.
	expInvLn2 = 0x1.71547652b82fep+6
	// expLn2Hi + expLn2Lo is ln2/64; expLn2Hi has 36 significant bits, so
	// k·expLn2Hi is exact for |k| < 2^17.
	expLn2Hi = 0x1.62e42fefa0000p-7
	expLn2Lo = 0x1.cf79abc9e3b3ap-46
)

// expTable holds 2^(j/64), j = 0 … 63, as the float64 nearest to it and
// the float64 nearest to the rest.
var expTable = [64][2]float64{
	{0x1.0000000000000p+0, 0x0.0p+0},
	{0x1.02c9a3e778061p+0, -0x1.19083535b085dp-56},
	{0x1.059b0d3158574p+0, 0x1.d73e2a475b465p-55},
	{0x1.0874518759bc8p+0, 0x1.186be4bb284ffp-57},
	{0x1.0b5586cf9890fp+0, 0x1.8a62e4adc610bp-54},
	{0x1.0e3ec32d3d1a2p+0, 0x1.03a1727c57b53p-59},
	{0x1.11301d0125b51p+0, -0x1.6c51039449b3ap-54},
	{0x1.1429aaea92de0p+0, -0x1.32fbf9af1369ep-54},
	{0x1.172b83c7d517bp+0, -0x1.19041b9d78a76p-55},
	{0x1.1a35beb6fcb75p+0, 0x1.e5b4c7b4968e4p-55},
	{0x1.1d4873168b9aap+0, 0x1.e016e00a2643cp-54},
	{0x1.2063b88628cd6p+0, 0x1.dc775814a8495p-55},
	{0x1.2387a6e756238p+0, 0x1.9b07eb6c70573p-54},
	{0x1.26b4565e27cddp+0, 0x1.2bd339940e9d9p-55},
	{0x1.29e9df51fdee1p+0, 0x1.612e8afad1255p-55},
	{0x1.2d285a6e4030bp+0, 0x1.0024754db41d5p-54},
	{0x1.306fe0a31b715p+0, 0x1.6f46ad23182e4p-55},
	{0x1.33c08b26416ffp+0, 0x1.32721843659a6p-54},
	{0x1.371a7373aa9cbp+0, -0x1.63aeabf42eae2p-54},
	{0x1.3a7db34e59ff7p+0, -0x1.5e436d661f5e3p-56},
	{0x1.3dea64c123422p+0, 0x1.ada0911f09ebcp-55},
	{0x1.4160a21f72e2ap+0, -0x1.ef3691c309278p-58},
	{0x1.44e086061892dp+0, 0x1.89b7a04ef80d0p-59},
	{0x1.486a2b5c13cd0p+0, 0x1.3c1a3b69062f0p-56},
	{0x1.4bfdad5362a27p+0, 0x1.d4397afec42e2p-56},
	{0x1.4f9b2769d2ca7p+0, -0x1.4b309d25957e3p-54},
	{0x1.5342b569d4f82p+0, -0x1.07abe1db13cadp-55},
	{0x1.56f4736b527dap+0, 0x1.9bb2c011d93adp-54},
	{0x1.5ab07dd485429p+0, 0x1.6324c054647adp-54},
	{0x1.5e76f15ad2148p+0, 0x1.ba6f93080e65ep-54},
	{0x1.6247eb03a5585p+0, -0x1.383c17e40b497p-54},
	{0x1.6623882552225p+0, -0x1.bb60987591c34p-54},
	{0x1.6a09e667f3bcdp+0, -0x1.bdd3413b26456p-54},
	{0x1.6dfb23c651a2fp+0, -0x1.bbe3a683c88abp-57},
	{0x1.71f75e8ec5f74p+0, -0x1.16e4786887a99p-55},
	{0x1.75feb564267c9p+0, -0x1.0245957316dd3p-54},
	{0x1.7a11473eb0187p+0, -0x1.41577ee04992fp-55},
	{0x1.7e2f336cf4e62p+0, 0x1.05d02ba15797ep-56},
	{0x1.82589994cce13p+0, -0x1.d4c1dd41532d8p-54},
	{0x1.868d99b4492edp+0, -0x1.fc6f89bd4f6bap-54},
	{0x1.8ace5422aa0dbp+0, 0x1.6e9f156864b27p-54},
	{0x1.8f1ae99157736p+0, 0x1.5cc13a2e3976cp-55},
	{0x1.93737b0cdc5e5p+0, -0x1.75fc781b57ebcp-57},
	{0x1.97d829fde4e50p+0, -0x1.d185b7c1b85d1p-54},
	{0x1.9c49182a3f090p+0, 0x1.c7c46b071f2bep-56},
	{0x1.a0c667b5de565p+0, -0x1.359495d1cd533p-54},
	{0x1.a5503b23e255dp+0, -0x1.d2f6edb8d41e1p-54},
	{0x1.a9e6b5579fdbfp+0, 0x1.0fac90ef7fd31p-54},
	{0x1.ae89f995ad3adp+0, 0x1.7a1cd345dcc81p-54},
	{0x1.b33a2b84f15fbp+0, -0x1.2805e3084d708p-57},
	{0x1.b7f76f2fb5e47p+0, -0x1.5584f7e54ac3bp-56},
	{0x1.bcc1e904bc1d2p+0, 0x1.23dd07a2d9e84p-55},
	{0x1.c199bdd85529cp+0, 0x1.11065895048ddp-55},
	{0x1.c67f12e57d14bp+0, 0x1.2884dff483cadp-54},
	{0x1.cb720dcef9069p+0, 0x1.503cbd1e949dbp-56},
	{0x1.d072d4a07897cp+0, -0x1.cbc3743797a9cp-54},
	{0x1.d5818dcfba487p+0, 0x1.2ed02d75b3707p-55},
	{0x1.da9e603db3285p+0, 0x1.c2300696db532p-54},
	{0x1.dfc97337b9b5fp+0, -0x1.1a5cd4f184b5cp-54},
	{0x1.e502ee78b3ff6p+0, 0x1.39e8980a9cc8fp-55},
	{0x1.ea4afa2a490dap+0, -0x1.e9c23179c2893p-54},
	{0x1.efa1bee615a27p+0, 0x1.dc7f486a4b6b0p-54},
	{0x1.f50765b6e4540p+0, 0x1.9d3e12dd8a18bp-54},
	{0x1.fa7c1819e90d8p+0, 0x1.74853f3a5931ep-55},
}

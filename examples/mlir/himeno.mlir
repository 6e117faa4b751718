// Himeno benchmark, Jacobi kernel: seed 000 Table 5 (size M, 256 x 128 x 128
// points with x innermost, float, 34 flops per point, 14 arrays), from the
// public benchmark's jacobi():
//
//   s0 = a0*p[i+1][j][k] + a1*p[i][j+1][k] + a2*p[i][j][k+1]
//      + b0*(p[i+1][j+1][k] - p[i+1][j-1][k] - p[i-1][j+1][k] + p[i-1][j-1][k])
//      + b1*(p[i][j+1][k+1] - p[i][j-1][k+1] - p[i][j+1][k-1] + p[i][j-1][k-1])
//      + b2*(p[i+1][j][k+1] - p[i-1][j][k+1] - p[i+1][j][k-1] + p[i-1][j][k-1])
//      + c0*p[i-1][j][k] + c1*p[i][j-1][k] + c2*p[i][j][k-1] + wrk1[i][j][k];
//   ss = (s0*a3 - p[i][j][k]) * bnd[i][j][k];
//   wrk2[i][j][k] = p[i][j][k] + omega*ss;
//   ... then p = wrk2 on the interior.
//
// (a0..a3, b0..b2, c0..c2 are the coefficient arrays a[0..3], b[0..2],
// c[0..2] at [i][j][k].) The residual `gosa += ss*ss` is a reduction, which
// the dialect does not express yet; see docs/Dialect.md.

!field = !stencil.field<128x128x256xf32>
!mem = memref<128x128x256xf32>

func.func @himeno(%P: !mem, %A0: !mem, %A1: !mem, %A2: !mem, %A3: !mem,
                  %B0: !mem, %B1: !mem, %B2: !mem, %C0: !mem, %C1: !mem,
                  %C2: !mem, %BND: !mem, %WRK1: !mem, %WRK2: !mem,
                  %omega: f32, %steps: index) {
  %p0 = stencil.load %P : !mem -> !field
  %a0 = stencil.load %A0 : !mem -> !field
  %a1 = stencil.load %A1 : !mem -> !field
  %a2 = stencil.load %A2 : !mem -> !field
  %a3 = stencil.load %A3 : !mem -> !field
  %b0 = stencil.load %B0 : !mem -> !field
  %b1 = stencil.load %B1 : !mem -> !field
  %b2 = stencil.load %B2 : !mem -> !field
  %c0 = stencil.load %C0 : !mem -> !field
  %c1 = stencil.load %C1 : !mem -> !field
  %c2 = stencil.load %C2 : !mem -> !field
  %bnd = stencil.load %BND : !mem -> !field
  %wrk1 = stencil.load %WRK1 : !mem -> !field
  %wrk2_0 = stencil.load %WRK2 : !mem -> !field
  %grid = stencil.grid [1, 1, 1] to [127, 127, 255] : !stencil.grid<3>
  %p, %wrk2 = stencil.iterate %steps iter_args(%pk = %p0, %wk = %wrk2_0)
      : !field, !field {
    %w = stencil.apply on %grid
        ins(%pp = %pk : !field, %ea0 = %a0 : !field, %ea1 = %a1 : !field,
            %ea2 = %a2 : !field, %ea3 = %a3 : !field, %eb0 = %b0 : !field,
            %eb1 = %b1 : !field, %eb2 = %b2 : !field, %ec0 = %c0 : !field,
            %ec1 = %c1 : !field, %ec2 = %c2 : !field, %ebnd = %bnd : !field,
            %ewrk1 = %wrk1 : !field, %om = %omega : f32)
        outs(%wk : !field) {
      %va0 = stencil.access %ea0[0, 0, 0] : !field
      %va1 = stencil.access %ea1[0, 0, 0] : !field
      %va2 = stencil.access %ea2[0, 0, 0] : !field
      %va3 = stencil.access %ea3[0, 0, 0] : !field
      %vb0 = stencil.access %eb0[0, 0, 0] : !field
      %vb1 = stencil.access %eb1[0, 0, 0] : !field
      %vb2 = stencil.access %eb2[0, 0, 0] : !field
      %vc0 = stencil.access %ec0[0, 0, 0] : !field
      %vc1 = stencil.access %ec1[0, 0, 0] : !field
      %vc2 = stencil.access %ec2[0, 0, 0] : !field
      %vbnd = stencil.access %ebnd[0, 0, 0] : !field
      %vwrk1 = stencil.access %ewrk1[0, 0, 0] : !field
      %p_000 = stencil.access %pp[0, 0, 0] : !field
      %p_p00 = stencil.access %pp[1, 0, 0] : !field
      %p_0p0 = stencil.access %pp[0, 1, 0] : !field
      %p_00p = stencil.access %pp[0, 0, 1] : !field
      %p_m00 = stencil.access %pp[-1, 0, 0] : !field
      %p_0m0 = stencil.access %pp[0, -1, 0] : !field
      %p_00m = stencil.access %pp[0, 0, -1] : !field
      %p_pp0 = stencil.access %pp[1, 1, 0] : !field
      %p_pm0 = stencil.access %pp[1, -1, 0] : !field
      %p_mp0 = stencil.access %pp[-1, 1, 0] : !field
      %p_mm0 = stencil.access %pp[-1, -1, 0] : !field
      %p_0pp = stencil.access %pp[0, 1, 1] : !field
      %p_0mp = stencil.access %pp[0, -1, 1] : !field
      %p_0pm = stencil.access %pp[0, 1, -1] : !field
      %p_0mm = stencil.access %pp[0, -1, -1] : !field
      %p_p0p = stencil.access %pp[1, 0, 1] : !field
      %p_m0p = stencil.access %pp[-1, 0, 1] : !field
      %p_p0m = stencil.access %pp[1, 0, -1] : !field
      %p_m0m = stencil.access %pp[-1, 0, -1] : !field
      // a0*p[i+1] + a1*p[j+1] + a2*p[k+1]: 5 flops
      %t0 = arith.mulf %va0, %p_p00 : f32
      %t1 = arith.mulf %va1, %p_0p0 : f32
      %t2 = arith.mulf %va2, %p_00p : f32
      %s0 = arith.addf %t0, %t1 : f32
      %s1 = arith.addf %s0, %t2 : f32
      // b0*(...): 5 flops
      %u0 = arith.subf %p_pp0, %p_pm0 : f32
      %u1 = arith.subf %u0, %p_mp0 : f32
      %u2 = arith.addf %u1, %p_mm0 : f32
      %u3 = arith.mulf %vb0, %u2 : f32
      %s2 = arith.addf %s1, %u3 : f32
      // b1*(...): 5 flops
      %v0 = arith.subf %p_0pp, %p_0mp : f32
      %v1 = arith.subf %v0, %p_0pm : f32
      %v2 = arith.addf %v1, %p_0mm : f32
      %v3 = arith.mulf %vb1, %v2 : f32
      %s3 = arith.addf %s2, %v3 : f32
      // b2*(...): 5 flops
      %w0 = arith.subf %p_p0p, %p_m0p : f32
      %w1 = arith.subf %w0, %p_p0m : f32
      %w2 = arith.addf %w1, %p_m0m : f32
      %w3 = arith.mulf %vb2, %w2 : f32
      %s4 = arith.addf %s3, %w3 : f32
      // c0*p[i-1] + c1*p[j-1] + c2*p[k-1] + wrk1: 7 flops
      %x0 = arith.mulf %vc0, %p_m00 : f32
      %x1 = arith.mulf %vc1, %p_0m0 : f32
      %x2 = arith.mulf %vc2, %p_00m : f32
      %s5 = arith.addf %s4, %x0 : f32
      %s6 = arith.addf %s5, %x1 : f32
      %s7 = arith.addf %s6, %x2 : f32
      %s8 = arith.addf %s7, %vwrk1 : f32
      // ss = (s0*a3 - p) * bnd: 3 flops; wrk2 = p + omega*ss: 2 flops
      %y0 = arith.mulf %s8, %va3 : f32
      %y1 = arith.subf %y0, %p_000 : f32
      %ss = arith.mulf %y1, %vbnd : f32
      %y2 = arith.mulf %om, %ss : f32
      %new = arith.addf %p_000, %y2 : f32
      stencil.return %new : f32
    }
    // copy: p[i][j][k] = wrk2[i][j][k]
    %pn = stencil.apply on %grid ins(%q = %w : !field) outs(%pk : !field) {
      %v = stencil.access %q[0, 0, 0] : !field
      stencil.return %v : f32
    }
    stencil.yield %pn, %w : !field, !field
  }
  stencil.store %p to %P : !field to !mem
  stencil.store %wrk2 to %WRK2 : !field to !mem
  return
}

module {
  func.func @stencil_run_0(%arg0: memref<24x24xf64>, %arg1: memref<24x24xf64>, %arg2: memref<f64>, %arg3: i32, %arg4: index) attributes {stencil.max_steps = 100 : i64} {
    %0 = stencil.load %arg0 : memref<24x24xf64> -> !stencil.field<24x24xf64>
    %1 = stencil.load %arg1 : memref<24x24xf64> -> !stencil.field<24x24xf64>
    %2 = stencil.grid [1, 1] to [23, 23] : !stencil.grid<2>
    %3 = memref.load %arg2[] : memref<f64>
    %4:4 = stencil.iterate %arg4 iter_args(%arg5 = %0, %arg6 = %1, %arg7 = %3, %arg8 = %arg3) : !stencil.field<24x24xf64>, !stencil.field<24x24xf64>, f64, i32 {
      %5:2 = stencil.apply on %2 ins(%arg9 = %arg5 : !stencil.field<24x24xf64>, %arg10 = %arg8 : i32) outs(%arg6 : !stencil.field<24x24xf64>) reduce(max %arg7 : f64) {
        %8 = stencil.index 0
        %9 = arith.index_cast %8 : index to i32
        %c4_i32 = arith.constant 4 : i32
        %10 = arith.cmpi sgt, %9, %c4_i32 : i32
        %11 = stencil.index 1
        %12 = arith.index_cast %11 : index to i32
        %c3_i32 = arith.constant 3 : i32
        %c1_i32_0 = arith.constant 1 : i32
        %13 = arith.select %10, %c3_i32, %c1_i32_0 : i32
        %14 = arith.remsi %12, %13 : i32
        %c0_i32 = arith.constant 0 : i32
        %15 = arith.cmpi ne, %14, %c0_i32 : i32
        %true = arith.constant true
        %16 = arith.xori %15, %true : i1
        %17 = arith.andi %10, %16 : i1
        %18 = stencil.index 0
        %19 = arith.index_cast %18 : index to i32
        %c1_i32_1 = arith.constant 1 : i32
        %20 = arith.andi %19, %c1_i32_1 : i32
        %c0_i32_2 = arith.constant 0 : i32
        %21 = arith.cmpi ne, %20, %c0_i32_2 : i32
        %true_3 = arith.constant true
        %22 = arith.xori %21, %true_3 : i1
        %23 = arith.ori %15, %22 : i1
        %24 = arith.andi %10, %23 : i1
        %cst = arith.constant 2.500000e-01 : f64
        %25 = stencil.access %arg9[-1, 0] : !stencil.field<24x24xf64>
        %26 = stencil.access %arg9[1, 0] : !stencil.field<24x24xf64>
        %27 = arith.addf %25, %26 : f64
        %28 = stencil.access %arg9[0, -1] : !stencil.field<24x24xf64>
        %29 = arith.addf %27, %28 : f64
        %30 = stencil.access %arg9[0, 1] : !stencil.field<24x24xf64>
        %31 = arith.addf %29, %30 : f64
        %32 = arith.mulf %cst, %31 : f64
        %true_4 = arith.constant true
        %33 = arith.xori %24, %true_4 : i1
        %34 = stencil.access %arg9[0, 0] : !stencil.field<24x24xf64>
        %cst_5 = arith.constant 1.000000e-03 : f64
        %35 = stencil.index 0
        %36 = arith.index_cast %35 : index to i32
        %37 = stencil.index 1
        %38 = arith.index_cast %37 : index to i32
        %39 = arith.muli %36, %38 : i32
        %c13_i32 = arith.constant 13 : i32
        %c1_i32_6 = arith.constant 1 : i32
        %40 = arith.select %33, %c13_i32, %c1_i32_6 : i32
        %41 = arith.remsi %39, %40 : i32
        %42 = arith.sitofp %41 : i32 to f64
        %43 = arith.mulf %cst_5, %42 : f64
        %44 = arith.sitofp %arg10 : i32 to f64
        %45 = arith.mulf %43, %44 : f64
        %46 = arith.addf %34, %45 : f64
        %47 = arith.select %24, %32, %46 : f64
        %48 = stencil.access %arg9[0, 0] : !stencil.field<24x24xf64>
        %49 = arith.subf %47, %48 : f64
        %50 = math.absf %49 : f64
        stencil.return %47, %50 : f64, f64
      }
      %6 = stencil.apply on %2 ins(%arg9 = %5#0 : !stencil.field<24x24xf64>) outs(%arg5 : !stencil.field<24x24xf64>) {
        %8 = stencil.access %arg9[0, 0] : !stencil.field<24x24xf64>
        stencil.return %8 : f64
      }
      %c1_i32 = arith.constant 1 : i32
      %7 = arith.addi %arg8, %c1_i32 : i32
      stencil.yield %6, %5#0, %5#1, %7 : !stencil.field<24x24xf64>, !stencil.field<24x24xf64>, f64, i32
    }
    stencil.store %4#0 to %arg0 : !stencil.field<24x24xf64> to memref<24x24xf64>
    stencil.store %4#1 to %arg1 : !stencil.field<24x24xf64> to memref<24x24xf64>
    memref.store %4#2, %arg2[] : memref<f64>
    return
  }
}

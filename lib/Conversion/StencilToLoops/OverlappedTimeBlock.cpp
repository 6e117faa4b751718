//===- OverlappedTimeBlock.cpp - 1-D time blocks as overlapped tiles ------===//
//
// Seed 000 Fig. 3 on the host, the scheme for 1-D grids: each tile loads
// its points plus L x radius around into private buffers, computes the L
// levels of T steps (one per stage of a step) on a region that shrinks by
// the radius each level, and writes its own points (OverlappedTile,
// StencilCommon/TimeBlock.h, does the index arithmetic).
//
//===----------------------------------------------------------------------===//

#include "HostLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::stencil;

static Value getIndex(OpBuilder &builder, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(builder, loc, value);
}

/// Bytes from one private buffer to the next, for `count` buffers of at
/// most `bytes` each: whole cache lines, and the buffers spread evenly over
/// the addresses modulo 4 KiB. A load whose address matches an older,
/// still pending store in bits 0-11 waits for it (4 KiB aliasing), and a
/// level loads from one buffer what the next iterations store to another.
static int64_t getPrivateBufferSpacing(int64_t bytes, int64_t count) {
  constexpr int64_t page = 4096;
  int64_t apart = std::max<int64_t>(
      page / count / host::kLineBytes * host::kLineBytes, host::kLineBytes);
  // The first address at or after the buffer's end that is `apart` past a
  // page.
  return apart +
         llvm::divideCeil(std::max<int64_t>(bytes - apart, 0), page) * page;
}

void host::emitOverlappedTimeBlock(OpBuilder &builder, Location loc,
                                   const TimeBlock &block, Value depth) {
  assert(depth && "the host backend takes every block's depth at run time");
  const TimeBlockPlan &plan = block.plan;
  ArrayRef<int64_t> tile = plan.tile;
  unsigned rank = tile.size();
  assert(rank == 1 && "grids of two or more axes use pipelined rows");
  SmallVector<int64_t, 3> shape = OverlappedTile::getShape(plan, tile);
  SmallVector<Value> lower, upper, steps, sizes;
  for (unsigned axis = 0; axis < rank; ++axis) {
    lower.push_back(
        getValueOrCreateConstantIndexOp(builder, loc, plan.lower[axis]));
    upper.push_back(
        getValueOrCreateConstantIndexOp(builder, loc, plan.upper[axis]));
    steps.push_back(getIndex(builder, loc, tile[axis]));
    sizes.push_back(
        memref::DimOp::create(builder, loc, block.sources[0], axis));
  }
  scf::ParallelOp::create(
      builder, loc, lower, upper, steps,
      [&](OpBuilder &b, Location l, ValueRange origin) {
        OverlappedTile box(
            b, l, plan, tile, origin, sizes,
            [](OpBuilder &ob, Location ol, OpFoldResult bound) -> Value {
              return getValueOrCreateConstantIndexOp(ob, ol, bound);
            },
            block.ringLow, block.ringHigh);
        SmallVector<Value> ones(rank, getIndex(b, l, 1));
        // Per carried pair, the tile's private buffers
        // (getBuffersPerPair). Each starts as the box of the field its
        // stage writes, so the cells no level writes (the boundary) are
        // there to read.
        unsigned stages = plan.getNumStages();
        unsigned perPair = plan.getBuffersPerPair();
        SmallVector<MemRefType> types;
        int64_t largest = 0;
        for (Value source : block.sources) {
          auto type = MemRefType::get(
              shape, llvm::cast<MemRefType>(source.getType()).getElementType());
          types.push_back(type);
          largest = std::max(largest, type.getNumElements() *
                                          host::getElementBytes(type));
        }
        // All of a tile's buffers in one allocation, at a spacing of our
        // choosing. Separate allocations landed wherever malloc put them:
        // for heat1d 528 bytes apart modulo 4 KiB, 20% slower than 1-3 KiB
        // apart (docs/stencilcc.md, "Private buffers of 1-D tiles").
        int64_t spacing = getPrivateBufferSpacing(
            largest, static_cast<int64_t>(types.size()) * perPair);
        auto arenaType = MemRefType::get(
            {spacing * static_cast<int64_t>(types.size()) * perPair},
            b.getI8Type());
        Value arena =
            memref::AllocOp::create(b, l, arenaType, ValueRange{},
                                    b.getI64IntegerAttr(host::kLineBytes));
        SmallVector<SmallVector<Value, 2>> privates;
        int64_t next = 0;
        for (MemRefType type : types) {
          privates.emplace_back();
          for (unsigned copy = 0; copy < perPair; ++copy, next += spacing) {
            Value shift = getIndex(b, l, next);
            privates.back().push_back(
                memref::ViewOp::create(b, l, type, arena, shift, ValueRange{}));
          }
        }
        scf::buildLoopNest(
            b, l, box.getLoadLow(), box.getLoadHigh(), ones,
            [&](OpBuilder &nb, Location nl, ValueRange point) {
              SmallVector<Value, 3> at = box.toLocal(nb, nl, point);
              for (auto [pair, buffers] : llvm::enumerate(privates)) {
                Value v;
                for (unsigned copy = 0; copy < perPair; ++copy) {
                  if (copy < stages)
                    v = memref::LoadOp::create(
                        nb, nl, block.ringHolder(copy, pair), point);
                  memref::StoreOp::create(nb, nl, v, buffers[copy], at);
                }
              }
            });
        // The steps as a loop over the levels of each step (unrolled, IR
        // and compile time would grow with T). At the start of a step the
        // last buffer of each pair holds the latest level; a step's levels
        // leave it in buffer `stages - 1`, which the loop rotates back to
        // the end (for one stage: swaps the two). A shallower block of
        // `depth` steps runs the last `depth` of the T steps' boxes: its
        // region still shrinks to the tile's own points.
        SmallVector<Value> buffers;
        for (auto &pair : privates)
          llvm::append_range(buffers, pair);
        // One op per statement: the order of IR built in one call's
        // arguments would depend on the compiler.
        Value count = getIndex(b, l, plan.timeBlock);
        Value first = arith::SubIOp::create(b, l, count, depth);
        Value one = getIndex(b, l, 1);
        auto steps = scf::ForOp::create(
            b, l, first, count, one, buffers,
            [&](OpBuilder &fb, Location fl, Value step, ValueRange current) {
              Value firstLevel =
                  arith::MulIOp::create(fb, fl, step, getIndex(fb, fl, stages));
              for (unsigned stage = 0; stage < stages; ++stage) {
                Value level = arith::AddIOp::create(fb, fl, firstLevel,
                                                    getIndex(fb, fl, stage));
                unsigned read = (stage + perPair - 1) % perPair;
                unsigned write = stage % perPair;
                SmallVector<Value> from, to;
                box.getLevelBox(fb, level, from, to);
                // Each level loads offset r_high of every pair once per
                // point and carries the values at offsets -r_low ..
                // r_high - 1 from the iteration before. A level reads one
                // buffer and writes another, which LLVM cannot see through
                // the swapped loop arguments: without the carries it
                // loads every offset again (docs/stencilcc.md, "Neighbours
                // carried through 1-D levels").
                auto loadAt = [&](OpBuilder &lb, Location ll, unsigned pair,
                                  Value at, int64_t offset) -> Value {
                  Value shift = getIndex(lb, ll, offset);
                  Value shifted = arith::AddIOp::create(lb, ll, at, shift);
                  return memref::LoadOp::create(
                      lb, ll, current[perPair * pair + read],
                      box.toLocal(lb, ll, ValueRange{shifted}));
                };
                int64_t low = plan.radiusLow[0], high = plan.radiusHigh[0];
                int64_t window = low + high;
                unsigned pairs = privates.size();
                SmallVector<Value> init;
                for (unsigned pair = 0; pair < pairs; ++pair)
                  for (int64_t offset = -low; offset < high; ++offset)
                    init.push_back(loadAt(fb, fl, pair, from[0], offset));
                Value one = getIndex(fb, fl, 1);
                scf::ForOp::create(
                    fb, fl, from[0], to[0], one, init,
                    [&](OpBuilder &nb, Location nl, Value i,
                        ValueRange carried) {
                      SmallVector<Value> fresh;
                      for (unsigned pair = 0; pair < pairs; ++pair)
                        fresh.push_back(loadAt(nb, nl, pair, i, high));
                      auto valueAt = [&](unsigned pair, int64_t offset) {
                        return offset == high
                                   ? fresh[pair]
                                   : carried[pair * window + offset + low];
                      };
                      emitTimeBlockPoint(
                          nb, nl, block, stage, ValueRange{i},
                          [&](OpBuilder &, Location, unsigned pair, ValueRange,
                              ArrayRef<int64_t> offset) -> Value {
                            return valueAt(pair, offset[0]);
                          },
                          [&](OpBuilder &sb, Location sl, unsigned pair,
                              Value value) {
                            memref::StoreOp::create(
                                sb, sl, value, current[perPair * pair + write],
                                box.toLocal(sb, sl, ValueRange{i}));
                          });
                      SmallVector<Value> next;
                      for (unsigned pair = 0; pair < pairs; ++pair)
                        for (int64_t offset = -low + 1; offset <= high;
                             ++offset)
                          next.push_back(valueAt(pair, offset));
                      scf::YieldOp::create(nb, nl, next);
                    });
              }
              SmallVector<Value> rotated;
              for (unsigned pair = 0; pair < privates.size(); ++pair)
                for (unsigned copy = 0; copy < perPair; ++copy)
                  rotated.push_back(
                      current[perPair * pair + (copy + stages) % perPair]);
              scf::YieldOp::create(fb, fl, rotated);
            });
        // The tile's own points go to the destinations.
        scf::buildLoopNest(
            b, l, box.getOrigin(), box.getEnd(), ones,
            [&](OpBuilder &nb, Location nl, ValueRange point) {
              SmallVector<Value, 3> at = box.toLocal(nb, nl, point);
              for (auto [pair, destination] :
                   llvm::enumerate(block.destinations)) {
                Value v = memref::LoadOp::create(
                    nb, nl, steps.getResult(perPair * pair + perPair - 1), at);
                memref::StoreOp::create(nb, nl, v, destination, point);
              }
            });
        memref::DeallocOp::create(b, l, arena);
        scf::ReduceOp::create(b, l);
      });
}

package interderive

// StackLimit is the largest stack a goroutine can have: Go grows a goroutine's stack by
// doubling it, up to a maximum (runtime/debug.SetMaxStack) of 1,000,000,000 bytes on
// 64-bit platforms and 250,000,000 on 32-bit ones, which the workbench leaves as it
// is; a stack that would grow past the maximum aborts the whole process (a fatal
// error, which no recover catches). The last size below the maximum is 2^29 bytes
// (512 MiB) on 64-bit platforms and 2^27 (128 MiB) on 32-bit ones.
//
// A recursion whose levels take at most B bytes of stack each therefore runs
// StackLimit/B levels deep at most. The bounds on the depth of a recursion are derived
// from it (gradual.MaxNesting, dpl.MaxNesting, interp.MaxDepth), with the bytes a
// level takes bounded by a test that runs the recursion under a smaller stack, and a
// share of StackLimit left for what runs below and above the recursion. (The bounds on
// the heap are derived from DefaultMemory.)
const StackLimit = 1 << (27 + 2*(^uint(0)>>63))

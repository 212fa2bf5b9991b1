#!/usr/bin/env python3
# generate.py: writes the synthetic rocprof-compute workload of this
# directory (made up for the demo, not measured): a small training step on
# an MI200 (gfx90a), rocprof v1 layout, 42 dispatches of 6 kernels.
# Deterministic: run it again and the files come out the same.
#   python3 examples/pmc_workload/generate.py examples/pmc_workload
import csv, os, random, sys

out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(__file__)
rng = random.Random(5)
CHAN = 32
KERNELS = [
    # name, dispatches, mean ns, grid, workgroup, vgpr, lds
    ("Cijk_Ailk_Bljk_SB_MT128x128x16_MI32x32x2x1_SN_1LDSB0_GRVW4 [clone .kd]",
     6, 412000, 262144, 256, 128, 32768),
    ("void at::native::vectorized_elementwise_kernel<4, at::native::"
     "GeluCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)"
     "::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, "
     "at::native::GeluCUDAKernelImpl, at::detail::Array<char*, 2>) "
     "[clone .kd]", 6, 61000, 1048576, 256, 16, 0),
    ("void at::native::(anonymous namespace)::vectorized_layer_norm_kernel"
     "<float, float>(int, float, float const*, float const*, float const*, "
     "float*, float*, float*) [clone .kd]", 12, 38000, 4096, 256, 32, 2048),
    ("void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float, "
     "float, float, at::native::(anonymous namespace)::SoftMaxForwardEpilogue>"
     "(float*, float const*, int) [clone .kd]", 6, 52000, 8192, 512, 24, 4096),
    ("void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl"
     "<at::native::CUDAFunctor_add<float> >(at::TensorIteratorBase&, "
     "at::native::CUDAFunctor_add<float> const&)::{lambda(int)#1}>(int, "
     "{lambda(int)#1}) [clone .kd]", 9, 21000, 524288, 128, 12, 0),
    ("__amd_rocclr_fillBufferAligned.kd", 3, 4800, 65536, 256, 8, 0),
]
COUNTERS = ["GRBM_COUNT", "GRBM_GUI_ACTIVE", "SQ_WAVES", "SQ_BUSY_CYCLES",
            "SQ_CYCLES", "SQ_WAVE_CYCLES", "SQ_INSTS_VALU", "SQ_INSTS_SALU",
            "SQ_INSTS_SMEM", "SQ_INSTS_VMEM_RD", "SQ_INSTS_VMEM_WR",
            "SQ_INSTS_LDS", "SQ_INSTS_VALU_MFMA_MOPS_F32", "SQ_BUSY_CU_CYCLES",
            "TCP_TOTAL_CACHE_ACCESSES_sum", "TCC_HIT_sum", "TCC_MISS_sum",
            "TCC_EA_RDREQ_sum", "TCC_EA_WRREQ_sum"]
CHANNELS = ["TCC_HIT", "TCC_MISS", "TCC_REQ"]

def head():
    h = ["Dispatch_ID", "Kernel_Name", "GPU_ID", "Grid_Size",
         "Workgroup_Size", "LDS_Per_Workgroup", "Scratch_Per_Workitem",
         "Arch_VGPR", "Accum_VGPR", "SGPR", "wave_size", "obj"]
    h += COUNTERS
    for c in CHANNELS:
        h += ["%s[%d]" % (c, i) for i in range(CHAN)]
    return h + ["Start_Timestamp", "End_Timestamp"]

order = []
for k in KERNELS:
    order += [k] * k[1]
rng.shuffle(order)
t = 1411551767635712
pmc, sq = [], []
for i, (name, _, mean, grid, wg, vgpr, lds) in enumerate(order):
    dur = int(mean * rng.uniform(0.85, 1.25))
    t += rng.randint(2000, 30000)
    start, end = t, t + dur
    t = end
    cycles = dur * 1700 // 1000                  # 1700 MHz
    waves = grid // 64
    hits = [rng.randint(100, 4000) * grid // 65536 for _ in range(CHAN)]
    miss = [rng.randint(50, 1500) * grid // 65536 for _ in range(CHAN)]
    row = [i, name, 0, grid, wg, lds, 0, vgpr, 0, 16, 64,
           "0x7f%010x" % rng.getrandbits(40)]
    row += [cycles + 900, cycles, waves, cycles * 60, cycles * 26,
            waves * cycles // 3, waves * rng.randint(40, 900),
            waves * rng.randint(10, 80), waves * rng.randint(2, 12),
            waves * rng.randint(1, 16), waves * rng.randint(1, 8),
            waves * (lds // 1024), waves * (64 if "Cijk" in name else 0),
            cycles * rng.randint(60, 100), grid * 4, sum(hits), sum(miss),
            sum(miss) + rng.randint(0, 99), grid // 16]
    row += hits + miss + [h + m for h, m in zip(hits, miss)]
    pmc.append(row + [start, end])
    accum = int(waves * cycles * rng.uniform(0.2, 0.6))
    sq.append([i, name, 0, grid, wg, lds, 0, vgpr, 0, 16, 64,
               cycles + 700, cycles - 200, waves, cycles * 26, accum // 10,
               0, accum, start - 900000, end - 900000 + rng.randint(-90, 90)])

def write(name, header, rows):
    with open(os.path.join(out, name), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)

write("pmc_perf.csv", head(), pmc)
write("SQ_LEVEL_WAVES.csv",
      ["Dispatch_ID", "Kernel_Name", "GPU_ID", "Grid_Size", "Workgroup_Size",
       "LDS_Per_Workgroup", "Scratch_Per_Workitem", "Arch_VGPR", "Accum_VGPR",
       "SGPR", "wave_size", "GRBM_COUNT", "GRBM_GUI_ACTIVE", "SQ_WAVES",
       "SQ_CYCLES", "SQ_BUSY_CYCLES", "SQ_LEVEL_WAVES", "SQ_ACCUM_PREV_HIRES",
       "Start_Timestamp", "End_Timestamp"], sq)
write("sysinfo.csv",
      ["workload_name", "command", "ip_blocks", "timestamp", "version",
       "hostname", "cpu_model", "sbios", "linux_distro",
       "linux_kernel_version", "amd_gpu_kernel_version", "cpu_memory",
       "gpu_memory", "rocm_version", "vbios", "compute_partition",
       "memory_partition", "gpu_model", "gpu_arch", "gpu_l1", "gpu_l2",
       "cu_per_gpu", "simd_per_cu", "se_per_gpu", "wave_size",
       "workgroup_max_size", "max_waves_per_cu", "max_sclk", "max_mclk",
       "cur_sclk", "cur_mclk", "total_l2_chan", "lds_banks_per_cu",
       "sqc_per_gpu", "pipes_per_gpu", "hbm_bw", "num_xcd",
       "num_hbm_channels"],
      [["train_step", "python train.py --steps 1", "SQ|LDS|SQC|TA|TD|TCP|TCC",
        "Sun 30 Nov 2026 02:00:00 AM  (UTC)", 2, "example-host",
        "Example 64-Core Processor", "Example BIOS 1.0", "Debian GNU/Linux 12",
        "6.1.0-example", "", 527650760, "", "6.2.0", "113-EXAMPLE-001", "NA",
        "NA", "MI200", "gfx90a", 16, 8192, 104, 4, 8, 64, 1024, 32, 1700,
        1600, 1700, 1600, CHAN, 32, 56, 4, 1638.4, 1, 32]])

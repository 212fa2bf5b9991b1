#!/usr/bin/env python3
# generate.py: writes the synthetic rocprof-compute workload of this
# directory (made up for the demo, not measured): a small training step on
# an MI200 (gfx90a), rocprof v1 layout, 42 dispatches of 6 kernels, with
# every counter the gfx90a panel configs read and the accumulate files
# SQ_IFETCH_LEVEL, SQ_INST_LEVEL_{LDS,SMEM,VMEM} and SQ_LEVEL_WAVES,
# and a roofline.csv of made-up empirical peaks (one device, in the column
# layout of the roofline benchmark that ships with rocprof-compute).
# The counters come from a small model of each kernel (instructions per
# wave, bytes per work-item, cache hit rates, occupancy), so they agree
# with each other: hits <= requests, busy <= elapsed cycles, the TCC
# channel columns add up to their _sum, REQ = HIT + MISS = READ + WRITE +
# ATOMIC, and per-cycle rates stay under the MI200 peaks.
# Deterministic: run it again and the files come out the same.
#   python3 examples/pmc_workload/generate.py examples/pmc_workload
import csv, os, random, sys

out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(__file__)
rng = random.Random(5)      # the timeline: names, order, timestamps
crng = random.Random(11)    # the counters
CHAN, CU, SE, PIPES, SQC, MAXW = 32, 104, 8, 4, 56, 32
MHZ = 1700

def P(**kw):
    return kw

KERNELS = [
    # name, dispatches, mean ns, grid, workgroup, vgpr, lds, model: per
    # wave instructions, bytes read/written per work-item, hit rates,
    # resident waves per CU, memory instructions through buffer or flat
    ("Cijk_Ailk_Bljk_SB_MT128x128x16_MI32x32x2x1_SN_1LDSB0_GRVW4 [clone .kd]",
     6, 412000, 262144, 256, 128, 32768,
     P(valu=900, salu=400, smem=40, vrd=96, vwr=16, lds=400, br=60, mfma=600,
       rdB=1024, wrB=16, atB=1, l1=0.55, l2=0.78, wpc=8, buf=True,
       trans=0.01, lat=(700, 900))),
    ("void at::native::vectorized_elementwise_kernel<4, at::native::"
     "GeluCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)"
     "::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, "
     "at::native::GeluCUDAKernelImpl, at::detail::Array<char*, 2>) "
     "[clone .kd]", 6, 61000, 1048576, 256, 16, 0,
     P(valu=70, salu=22, smem=4, vrd=1, vwr=1, lds=0, br=4, mfma=0,
       rdB=16, wrB=16, atB=0, l1=0.02, l2=0.12, wpc=24, buf=False,
       trans=0.12, lat=(550, 800))),
    ("void at::native::(anonymous namespace)::vectorized_layer_norm_kernel"
     "<float, float>(int, float, float const*, float const*, float const*, "
     "float*, float*, float*) [clone .kd]", 12, 38000, 4096, 256, 32, 2048,
     P(valu=420, salu=90, smem=12, vrd=18, vwr=16, lds=40, br=36, mfma=0,
       rdB=1040, wrB=1024, atB=0, l1=0.35, l2=0.6, wpc=1, buf=False,
       trans=0.02, lat=(450, 650))),
    ("void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float, "
     "float, float, at::native::(anonymous namespace)::SoftMaxForwardEpilogue>"
     "(float*, float const*, int) [clone .kd]", 6, 52000, 8192, 512, 24, 4096,
     P(valu=310, salu=64, smem=8, vrd=8, vwr=8, lds=24, br=30, mfma=0,
       rdB=512, wrB=512, atB=0, l1=0.45, l2=0.55, wpc=2, buf=False,
       trans=0.06, lat=(450, 650))),
    ("void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl"
     "<at::native::CUDAFunctor_add<float> >(at::TensorIteratorBase&, "
     "at::native::CUDAFunctor_add<float> const&)::{lambda(int)#1}>(int, "
     "{lambda(int)#1}) [clone .kd]", 9, 21000, 524288, 128, 12, 0,
     P(valu=34, salu=16, smem=4, vrd=2, vwr=1, lds=0, br=4, mfma=0,
       rdB=8, wrB=4, atB=0, l1=0.05, l2=0.2, wpc=20, buf=False,
       trans=0.0, lat=(500, 750))),
    ("__amd_rocclr_fillBufferAligned.kd", 3, 4800, 65536, 256, 8, 0,
     P(valu=6, salu=10, smem=2, vrd=0, vwr=1, lds=0, br=2, mfma=0,
       rdB=0, wrB=16, atB=0, l1=0.0, l2=0.0, wpc=10, buf=True,
       trans=0.0, lat=(400, 600))),
]

# pmc_perf.csv columns after the dispatch fields, in file order
COUNTERS = """GRBM_COUNT GRBM_GUI_ACTIVE GRBM_SPI_BUSY
CPC_CPC_STAT_BUSY CPC_CPC_STAT_IDLE CPC_CPC_STAT_STALL CPC_CPC_TCIU_BUSY
CPC_CPC_TCIU_IDLE CPC_CPC_UTCL2IU_BUSY CPC_CPC_UTCL2IU_IDLE
CPC_ME1_BUSY_FOR_PACKET_DECODE CPC_ME1_DC0_SPI_BUSY
CPC_UTCL1_STALL_ON_TRANSLATION CPF_CMP_UTCL1_STALL_ON_TRANSLATION
CPF_CPF_STAT_BUSY CPF_CPF_STAT_IDLE CPF_CPF_STAT_STALL CPF_CPF_TCIU_BUSY
CPF_CPF_TCIU_IDLE CPF_CPF_TCIU_STALL
SPI_CSN_BUSY SPI_CSN_NUM_THREADGROUPS SPI_CSN_WAVE SPI_RA_BAR_CU_FULL_CSN
SPI_RA_LDS_CU_FULL_CSN SPI_RA_REQ_NO_ALLOC SPI_RA_REQ_NO_ALLOC_CSN
SPI_RA_RES_STALL_CSN SPI_RA_SGPR_SIMD_FULL_CSN SPI_RA_TGLIM_CU_FULL_CSN
SPI_RA_TMP_STALL_CSN SPI_RA_VGPR_SIMD_FULL_CSN SPI_RA_WAVE_SIMD_FULL_CSN
SPI_RA_WVLIM_STALL_CSN SPI_SWC_CSC_WR SPI_VWC_CSC_WR
SQ_WAVES SQ_WAVES_SAVED SQ_WAVES_RESTORED SQ_BUSY_CYCLES SQ_CYCLES
SQ_BUSY_CU_CYCLES SQ_WAVE_CYCLES SQ_WAIT_ANY SQ_WAIT_INST_ANY
SQ_ACTIVE_INST_ANY SQ_ACTIVE_INST_VALU SQ_ACTIVE_INST_SCA
SQ_ACTIVE_INST_VMEM SQ_ACTIVE_INST_FLAT SQ_ACTIVE_INST_LDS
SQ_ACTIVE_INST_MISC SQ_THREAD_CYCLES_VALU SQ_VALU_MFMA_BUSY_CYCLES
SQ_INSTS SQ_INSTS_VALU SQ_INSTS_SALU SQ_INSTS_SMEM SQ_INSTS_VMEM
SQ_INSTS_VMEM_RD SQ_INSTS_VMEM_WR SQ_INSTS_FLAT_LDS_ONLY SQ_INSTS_LDS
SQ_INSTS_GDS SQ_INSTS_BRANCH SQ_INSTS_SENDMSG SQ_INSTS_VSKIPPED
SQ_INSTS_MFMA SQ_INSTS_VALU_ADD_F16 SQ_INSTS_VALU_MUL_F16
SQ_INSTS_VALU_FMA_F16 SQ_INSTS_VALU_TRANS_F16 SQ_INSTS_VALU_ADD_F32
SQ_INSTS_VALU_MUL_F32 SQ_INSTS_VALU_FMA_F32 SQ_INSTS_VALU_TRANS_F32
SQ_INSTS_VALU_ADD_F64 SQ_INSTS_VALU_MUL_F64 SQ_INSTS_VALU_FMA_F64
SQ_INSTS_VALU_TRANS_F64 SQ_INSTS_VALU_INT32 SQ_INSTS_VALU_INT64
SQ_INSTS_VALU_CVT SQ_INSTS_VALU_MFMA_I8 SQ_INSTS_VALU_MFMA_F16
SQ_INSTS_VALU_MFMA_BF16 SQ_INSTS_VALU_MFMA_F32 SQ_INSTS_VALU_MFMA_F64
SQ_INSTS_VALU_MFMA_MOPS_I8 SQ_INSTS_VALU_MFMA_MOPS_F16
SQ_INSTS_VALU_MFMA_MOPS_BF16 SQ_INSTS_VALU_MFMA_MOPS_F32
SQ_INSTS_VALU_MFMA_MOPS_F64
SQ_LDS_IDX_ACTIVE SQ_LDS_BANK_CONFLICT SQ_LDS_ADDR_CONFLICT
SQ_LDS_UNALIGNED_STALL SQ_LDS_MEM_VIOLATIONS SQ_LDS_ATOMIC_RETURN
SQ_VMEM_TA_ADDR_FIFO_FULL SQ_VMEM_TA_CMD_FIFO_FULL
SQ_VMEM_WR_TA_DATA_FIFO_FULL
SQC_ICACHE_REQ SQC_ICACHE_HITS SQC_ICACHE_MISSES SQC_ICACHE_MISSES_DUPLICATE
SQC_DCACHE_REQ SQC_DCACHE_HITS SQC_DCACHE_MISSES SQC_DCACHE_MISSES_DUPLICATE
SQC_DCACHE_ATOMIC SQC_DCACHE_REQ_READ_1 SQC_DCACHE_REQ_READ_2
SQC_DCACHE_REQ_READ_4 SQC_DCACHE_REQ_READ_8 SQC_DCACHE_REQ_READ_16
SQC_TC_INST_REQ SQC_TC_DATA_READ_REQ SQC_TC_DATA_WRITE_REQ
SQC_TC_DATA_ATOMIC_REQ SQC_TC_STALL
TA_TA_BUSY_sum TA_TOTAL_WAVEFRONTS_sum TA_BUFFER_WAVEFRONTS_sum
TA_BUFFER_READ_WAVEFRONTS_sum TA_BUFFER_WRITE_WAVEFRONTS_sum
TA_BUFFER_ATOMIC_WAVEFRONTS_sum TA_BUFFER_TOTAL_CYCLES_sum
TA_BUFFER_COALESCED_READ_CYCLES_sum TA_BUFFER_COALESCED_WRITE_CYCLES_sum
TA_FLAT_WAVEFRONTS_sum TA_FLAT_READ_WAVEFRONTS_sum
TA_FLAT_WRITE_WAVEFRONTS_sum TA_FLAT_ATOMIC_WAVEFRONTS_sum
TA_ADDR_STALLED_BY_TC_CYCLES_sum TA_ADDR_STALLED_BY_TD_CYCLES_sum
TA_DATA_STALLED_BY_TC_CYCLES_sum
TD_TD_BUSY_sum TD_TC_STALL_sum TD_SPI_STALL_sum TD_LOAD_WAVEFRONT_sum
TD_STORE_WAVEFRONT_sum TD_ATOMIC_WAVEFRONT_sum TD_COALESCABLE_WAVEFRONT_sum
TCP_GATE_EN1_sum TCP_GATE_EN2_sum TCP_TOTAL_ACCESSES_sum
TCP_TOTAL_CACHE_ACCESSES_sum TCP_TOTAL_READ_sum TCP_TOTAL_WRITE_sum
TCP_TOTAL_ATOMIC_WITH_RET_sum TCP_TOTAL_ATOMIC_WITHOUT_RET_sum
TCP_TOTAL_WRITEBACK_INVALIDATES_sum TCP_TA_TCP_STATE_READ_sum
TCP_TCP_LATENCY_sum TCP_PENDING_STALL_CYCLES_sum
TCP_READ_TAGCONFLICT_STALL_CYCLES_sum TCP_WRITE_TAGCONFLICT_STALL_CYCLES_sum
TCP_ATOMIC_TAGCONFLICT_STALL_CYCLES_sum TCP_TCR_TCP_STALL_CYCLES_sum
TCP_UTCL1_REQUEST_sum TCP_UTCL1_TRANSLATION_HIT_sum
TCP_UTCL1_TRANSLATION_MISS_sum TCP_UTCL1_PERMISSION_MISS_sum
TCP_TCC_READ_REQ_sum TCP_TCC_WRITE_REQ_sum TCP_TCC_ATOMIC_WITH_RET_REQ_sum
TCP_TCC_ATOMIC_WITHOUT_RET_REQ_sum TCP_TCC_NC_READ_REQ_sum
TCP_TCC_UC_READ_REQ_sum TCP_TCC_CC_READ_REQ_sum TCP_TCC_RW_READ_REQ_sum
TCP_TCC_NC_WRITE_REQ_sum TCP_TCC_UC_WRITE_REQ_sum TCP_TCC_CC_WRITE_REQ_sum
TCP_TCC_RW_WRITE_REQ_sum TCP_TCC_NC_ATOMIC_REQ_sum TCP_TCC_UC_ATOMIC_REQ_sum
TCP_TCC_CC_ATOMIC_REQ_sum TCP_TCC_RW_ATOMIC_REQ_sum
TCP_TCC_READ_REQ_LATENCY_sum TCP_TCC_WRITE_REQ_LATENCY_sum
TCC_BUSY_sum TCC_REQ_sum TCC_HIT_sum TCC_MISS_sum TCC_READ_sum
TCC_WRITE_sum TCC_ATOMIC_sum TCC_NC_REQ_sum TCC_UC_REQ_sum TCC_CC_REQ_sum
TCC_RW_REQ_sum TCC_STREAMING_REQ_sum TCC_PROBE_sum TCC_NORMAL_EVICT_sum
TCC_WRITEBACK_sum TCC_NORMAL_WRITEBACK_sum TCC_ALL_TC_OP_WB_WRITEBACK_sum
TCC_ALL_TC_OP_INV_EVICT_sum TCC_TOO_MANY_EA_WRREQS_STALL_sum
TCC_EA_RDREQ_sum TCC_EA_RDREQ_32B_sum TCC_EA_RDREQ_DRAM_sum
TCC_EA_RD_UNCACHED_32B_sum TCC_EA_RDREQ_LEVEL_sum TCC_EA_WRREQ_sum
TCC_EA_WRREQ_64B_sum TCC_EA_WRREQ_DRAM_sum TCC_EA_WR_UNCACHED_32B_sum
TCC_EA_WRREQ_LEVEL_sum TCC_EA0_WRREQ_sum TCC_EA0_WRREQ_64B_sum
TCC_EA_ATOMIC_sum TCC_EA_ATOMIC_LEVEL_sum""".split()
CHANNELS = ["TCC_HIT", "TCC_MISS", "TCC_REQ", "TCC_READ", "TCC_WRITE",
            "TCC_ATOMIC", "TCC_EA_RDREQ", "TCC_EA_RDREQ_LEVEL", "TCC_EA_WRREQ",
            "TCC_EA_WRREQ_LEVEL", "TCC_EA_ATOMIC", "TCC_EA_ATOMIC_LEVEL",
            "TCC_BUBBLE", "TCC_TOO_MANY_EA_WRREQS_STALL"]
DISPATCH = ["Dispatch_ID", "Kernel_Name", "GPU_ID", "Grid_Size",
            "Workgroup_Size", "LDS_Per_Workgroup", "Scratch_Per_Workitem",
            "Arch_VGPR", "Accum_VGPR", "SGPR", "wave_size"]
# accumulate files: their own counters (after GRBM_COUNT, GRBM_GUI_ACTIVE)
ACCUM = {
    "SQ_LEVEL_WAVES": ["CPC_ME1_BUSY_FOR_PACKET_DECODE", "SQ_CYCLES",
                       "SQ_WAVES", "SQ_WAVE_CYCLES", "SQ_BUSY_CYCLES",
                       "SQ_LEVEL_WAVES"],
    "SQ_IFETCH_LEVEL": ["SQ_WAVES", "SQ_IFETCH", "SQ_IFETCH_LEVEL"],
    "SQ_INST_LEVEL_LDS": ["SQ_INSTS_LDS", "SQ_INST_LEVEL_LDS"],
    "SQ_INST_LEVEL_SMEM": ["SQ_INSTS_SMEM", "SQ_INST_LEVEL_SMEM"],
    "SQ_INST_LEVEL_VMEM": ["SQ_INSTS_VMEM", "SQ_INST_LEVEL_VMEM"],
}

def u(lo, hi):
    return crng.uniform(lo, hi)

def part(total, weights):
    """total split into len(weights) integers in proportion, summing to it"""
    s = sum(weights)
    out = [int(total * w / s) for w in weights]
    for i in range(total - sum(out)):
        out[i % len(out)] += 1
    return out

def channels(total):
    """a per-channel split of total: addresses hash evenly, give or take"""
    return part(total, [u(0.85, 1.15) for _ in range(CHAN)])

def counters(grid, wg, lds, m, cycles):
    """every counter of one dispatch, as a dict, from the kernel model m"""
    c = {}
    j = lambda x: int(x * u(0.97, 1.03))           # run-to-run jitter
    waves = (grid + 63) // 64
    wgs = (grid + wg - 1) // wg
    c["GRBM_GUI_ACTIVE"] = cycles
    c["GRBM_COUNT"] = cycles + 900
    c["GRBM_SPI_BUSY"] = int(cycles * u(0.86, 0.97))
    cus = min(CU, wgs)                             # CUs given any work
    busy = u(0.84, 0.95) * cus / CU
    resident = min(waves, m["wpc"] * cus) * u(0.8, 0.95)
    # instructions
    n = {k: j(waves * m[k]) for k in
         ("valu", "salu", "smem", "vrd", "vwr", "lds", "br", "mfma")}
    c["SQ_WAVES"] = waves
    c["SQ_WAVES_SAVED"] = c["SQ_WAVES_RESTORED"] = 0
    c["SQ_BUSY_CYCLES"] = int(cycles * SE * u(0.9, 0.98))
    c["SQ_CYCLES"] = cycles * SE
    c["SQ_BUSY_CU_CYCLES"] = int(cycles * CU * busy)
    c["SQ_INSTS_MFMA"] = n["mfma"]
    c["SQ_INSTS_VALU"] = n["valu"] + n["mfma"]
    c["SQ_INSTS_SALU"] = n["salu"]
    c["SQ_INSTS_SMEM"] = n["smem"]
    c["SQ_INSTS_VMEM_RD"] = n["vrd"]
    c["SQ_INSTS_VMEM_WR"] = n["vwr"]
    c["SQ_INSTS_VMEM"] = n["vrd"] + n["vwr"]
    c["SQ_INSTS_FLAT_LDS_ONLY"] = 0
    c["SQ_INSTS_LDS"] = n["lds"]
    c["SQ_INSTS_GDS"] = 0
    c["SQ_INSTS_BRANCH"] = n["br"]
    c["SQ_INSTS_SENDMSG"] = waves if lds else 0
    c["SQ_INSTS_VSKIPPED"] = n["br"] // 10
    c["SQ_INSTS"] = (c["SQ_INSTS_VALU"] + n["salu"] + n["smem"] +
                     c["SQ_INSTS_VMEM"] + n["lds"] + n["br"] +
                     c["SQ_INSTS_SENDMSG"])
    v = n["valu"]
    tr = m["trans"]
    f32 = part(int(v * 0.7), [0.26, 0.2, 0.54 - tr, tr])
    for k, x in zip(("ADD", "MUL", "FMA", "TRANS"), f32):
        c["SQ_INSTS_VALU_%s_F32" % k] = x
        c["SQ_INSTS_VALU_%s_F16" % k] = 0
        c["SQ_INSTS_VALU_%s_F64" % k] = 0
    c["SQ_INSTS_VALU_INT32"] = int(v * 0.2)
    c["SQ_INSTS_VALU_INT64"] = int(v * 0.04)
    c["SQ_INSTS_VALU_CVT"] = int(v * 0.03)
    for t in ("I8", "F16", "BF16", "F32", "F64"):
        c["SQ_INSTS_VALU_MFMA_" + t] = 0
        c["SQ_INSTS_VALU_MFMA_MOPS_" + t] = 0
    c["SQ_INSTS_VALU_MFMA_F32"] = n["mfma"]
    c["SQ_INSTS_VALU_MFMA_MOPS_F32"] = n["mfma"] * 8   # 32x32x2: 4096 FLOP
    c["SQ_VALU_MFMA_BUSY_CYCLES"] = n["mfma"] * 64     # 64 cycles each
    # wave cycles (counted every 4 cycles)
    wave_cycles = int(resident * cycles / 4)
    c["SQ_WAVE_CYCLES"] = wave_cycles
    c["SQ_ACTIVE_INST_VALU"] = min(v * 4 + n["mfma"] * 16,
                                   int(cycles * CU * busy * 0.9))
    c["SQ_ACTIVE_INST_SCA"] = (n["salu"] + n["smem"]) * 4 // 5
    c["SQ_ACTIVE_INST_VMEM"] = c["SQ_INSTS_VMEM"] * 4 // 3
    c["SQ_ACTIVE_INST_FLAT"] = 0 if m["buf"] else c["SQ_INSTS_VMEM"]
    c["SQ_ACTIVE_INST_LDS"] = n["lds"] * 2
    c["SQ_ACTIVE_INST_MISC"] = n["br"] + c["SQ_INSTS_SENDMSG"]
    c["SQ_ACTIVE_INST_ANY"] = min(int(c["SQ_INSTS"] * u(0.55, 0.8)),
                                  wave_cycles // 2)
    c["SQ_WAIT_ANY"] = int(wave_cycles * u(0.35, 0.7))
    c["SQ_WAIT_INST_ANY"] = int(wave_cycles * u(0.05, 0.2))
    c["SQ_THREAD_CYCLES_VALU"] = int(c["SQ_ACTIVE_INST_VALU"] * 64 *
                                     u(0.82, 0.99))
    # LDS
    idx = int(n["lds"] * 4 * u(1.0, 1.4))
    c["SQ_LDS_IDX_ACTIVE"] = idx
    c["SQ_LDS_BANK_CONFLICT"] = int(idx * u(0.02, 0.15))
    c["SQ_LDS_ADDR_CONFLICT"] = c["SQ_LDS_BANK_CONFLICT"] // 3
    c["SQ_LDS_UNALIGNED_STALL"] = 0
    c["SQ_LDS_MEM_VIOLATIONS"] = 0
    c["SQ_LDS_ATOMIC_RETURN"] = 0
    vm = c["SQ_INSTS_VMEM"]
    c["SQ_VMEM_TA_ADDR_FIFO_FULL"] = int(vm * u(0.5, 4))
    c["SQ_VMEM_TA_CMD_FIFO_FULL"] = int(vm * u(0.2, 2))
    c["SQ_VMEM_WR_TA_DATA_FIFO_FULL"] = int(c["SQ_INSTS_VMEM_WR"] * u(0.5, 3))
    # instruction and scalar caches (SQC)
    ireq = j(c["SQ_INSTS"] / 6)
    imiss = max(1, int(ireq * u(0.005, 0.03)))
    c["SQC_ICACHE_REQ"] = ireq
    c["SQC_ICACHE_HITS"] = ireq - imiss
    c["SQC_ICACHE_MISSES"] = imiss
    c["SQC_ICACHE_MISSES_DUPLICATE"] = imiss // 3
    dreq = n["smem"] + waves // 4
    dmiss = max(1, int(dreq * u(0.02, 0.1)))
    c["SQC_DCACHE_REQ"] = dreq
    c["SQC_DCACHE_HITS"] = dreq - dmiss
    c["SQC_DCACHE_MISSES"] = dmiss
    c["SQC_DCACHE_MISSES_DUPLICATE"] = dmiss // 4
    c["SQC_DCACHE_ATOMIC"] = 0
    for k, x in zip((1, 2, 4, 8, 16), part(dreq, [0.2, 0.35, 0.3, 0.1, 0.05])):
        c["SQC_DCACHE_REQ_READ_%d" % k] = x
    c["SQC_TC_INST_REQ"] = imiss - imiss // 3
    c["SQC_TC_DATA_READ_REQ"] = dmiss - dmiss // 4
    c["SQC_TC_DATA_WRITE_REQ"] = c["SQC_TC_DATA_ATOMIC_REQ"] = 0
    c["SQC_TC_STALL"] = int(cycles * u(0.001, 0.01))
    c["SQ_IFETCH"] = ireq
    # texture addresser and data (TA, TD)
    rdw, wrw = c["SQ_INSTS_VMEM_RD"], c["SQ_INSTS_VMEM_WR"]
    atw = waves if m["atB"] else 0
    tot = rdw + wrw + atw
    b = "BUFFER" if m["buf"] else "FLAT"
    o = "FLAT" if m["buf"] else "BUFFER"
    for kind, x in (("READ", rdw), ("WRITE", wrw), ("ATOMIC", atw)):
        c["TA_%s_%s_WAVEFRONTS_sum" % (b, kind)] = x
        c["TA_%s_%s_WAVEFRONTS_sum" % (o, kind)] = 0
    c["TA_%s_WAVEFRONTS_sum" % b] = tot
    c["TA_%s_WAVEFRONTS_sum" % o] = 0
    c["TA_TOTAL_WAVEFRONTS_sum"] = tot
    tab = min(int(tot * u(14, 24)), int(cycles * CU * busy * 0.9))
    c["TA_TA_BUSY_sum"] = tab
    bufw = c["TA_BUFFER_WAVEFRONTS_sum"]
    c["TA_BUFFER_TOTAL_CYCLES_sum"] = min(bufw * 16, tab)
    c["TA_BUFFER_COALESCED_READ_CYCLES_sum"] = \
        int(c["TA_BUFFER_READ_WAVEFRONTS_sum"] * 16 * u(0.6, 0.9))
    c["TA_BUFFER_COALESCED_WRITE_CYCLES_sum"] = \
        int(c["TA_BUFFER_WRITE_WAVEFRONTS_sum"] * 16 * u(0.6, 0.9))
    c["TA_ADDR_STALLED_BY_TC_CYCLES_sum"] = int(tab * u(0.05, 0.3))
    c["TA_ADDR_STALLED_BY_TD_CYCLES_sum"] = int(tab * u(0.01, 0.05))
    c["TA_DATA_STALLED_BY_TC_CYCLES_sum"] = int(tab * u(0.02, 0.12))
    c["TD_TD_BUSY_sum"] = int(tab * u(0.8, 0.95))
    c["TD_TC_STALL_sum"] = int(c["TD_TD_BUSY_sum"] * u(0.05, 0.25))
    c["TD_SPI_STALL_sum"] = int(c["TD_TD_BUSY_sum"] * u(0.0, 0.02))
    c["TD_LOAD_WAVEFRONT_sum"] = tot               # every kind
    c["TD_STORE_WAVEFRONT_sum"] = wrw
    c["TD_ATOMIC_WAVEFRONT_sum"] = atw
    c["TD_COALESCABLE_WAVEFRONT_sum"] = int(tot * u(0.7, 0.95))
    # vector L1 (TCP): 64-byte lines
    rdl = grid * m["rdB"] // 64
    wrl = grid * m["wrB"] // 64
    atl = grid * m["atB"] // 64
    c["TCP_TOTAL_CACHE_ACCESSES_sum"] = rdl + wrl + atl
    c["TCP_TOTAL_ACCESSES_sum"] = int(tot * 16 * u(1.0, 1.6))
    c["TCP_TOTAL_READ_sum"] = rdw * 16
    c["TCP_TOTAL_WRITE_sum"] = wrw * 16
    c["TCP_TOTAL_ATOMIC_WITH_RET_sum"] = 0
    c["TCP_TOTAL_ATOMIC_WITHOUT_RET_sum"] = atw * 16
    c["TCP_TOTAL_WRITEBACK_INVALIDATES_sum"] = CU if wrw else 0
    c["TCP_TA_TCP_STATE_READ_sum"] = rdw
    c["TCP_TCP_LATENCY_sum"] = int(rdw * u(110, 260))
    en1 = min(int((rdl + wrl + atl) * u(2, 4) + tot * 8),
              int(cycles * CU * busy * 0.95))
    c["TCP_GATE_EN1_sum"] = en1
    c["TCP_GATE_EN2_sum"] = int(en1 * u(0.6, 0.9))
    c["TCP_PENDING_STALL_CYCLES_sum"] = int(en1 * u(0.05, 0.3))
    c["TCP_READ_TAGCONFLICT_STALL_CYCLES_sum"] = int(en1 * u(0.01, 0.08))
    c["TCP_WRITE_TAGCONFLICT_STALL_CYCLES_sum"] = int(en1 * u(0.0, 0.03))
    c["TCP_ATOMIC_TAGCONFLICT_STALL_CYCLES_sum"] = 0
    c["TCP_TCR_TCP_STALL_CYCLES_sum"] = int(en1 * u(0.02, 0.15))
    tl = tot * 2
    c["TCP_UTCL1_REQUEST_sum"] = tl
    c["TCP_UTCL1_TRANSLATION_MISS_sum"] = int(tl * u(0.001, 0.02))
    c["TCP_UTCL1_TRANSLATION_HIT_sum"] = \
        tl - c["TCP_UTCL1_TRANSLATION_MISS_sum"]
    c["TCP_UTCL1_PERMISSION_MISS_sum"] = 0
    trd = min(rdl, int(rdl * (1 - m["l1"]) * u(0.97, 1.03)))
    c["TCP_TCC_READ_REQ_sum"] = trd
    c["TCP_TCC_WRITE_REQ_sum"] = wrl
    c["TCP_TCC_ATOMIC_WITH_RET_REQ_sum"] = 0
    c["TCP_TCC_ATOMIC_WITHOUT_RET_REQ_sum"] = atl
    for kind, x in (("READ", trd), ("WRITE", wrl), ("ATOMIC", atl)):
        nc, uc, cc, rw = part(x, [0.86, 0.01, 0.03, 0.1])
        c["TCP_TCC_NC_%s_REQ_sum" % kind] = nc
        c["TCP_TCC_UC_%s_REQ_sum" % kind] = uc
        c["TCP_TCC_CC_%s_REQ_sum" % kind] = cc
        c["TCP_TCC_RW_%s_REQ_sum" % kind] = rw
    lat = m["lat"]
    c["TCP_TCC_READ_REQ_LATENCY_sum"] = int(trd * u(*lat))
    c["TCP_TCC_WRITE_REQ_LATENCY_sum"] = int(wrl * u(lat[0] * 0.8, lat[1]))
    # L2 (TCC), per channel; its reads include the SQC's misses
    reads = channels(trd + c["SQC_TC_INST_REQ"] + c["SQC_TC_DATA_READ_REQ"])
    writes = channels(wrl)
    atomics = channels(atl)
    ch = {k: [] for k in CHANNELS}
    for i in range(CHAN):
        rq = reads[i] + writes[i] + atomics[i]
        hit = min(rq, int(rq * m["l2"] * u(0.95, 1.05)))
        ea_rd = int((rq - hit) * reads[i] / rq) if rq else 0
        ea_wr = int(writes[i] * u(0.85, 1.0))
        ea_at = atomics[i]
        row = dict(TCC_HIT=hit, TCC_MISS=rq - hit, TCC_REQ=rq,
                   TCC_READ=reads[i], TCC_WRITE=writes[i],
                   TCC_ATOMIC=atomics[i], TCC_EA_RDREQ=ea_rd,
                   TCC_EA_RDREQ_LEVEL=int(ea_rd * u(*lat) * 0.8),
                   TCC_EA_WRREQ=ea_wr,
                   TCC_EA_WRREQ_LEVEL=int(ea_wr * u(*lat) * 0.6),
                   TCC_EA_ATOMIC=ea_at,
                   TCC_EA_ATOMIC_LEVEL=int(ea_at * u(*lat)),
                   TCC_BUBBLE=int(ea_rd * u(0.0, 0.05)),
                   TCC_TOO_MANY_EA_WRREQS_STALL=int(ea_wr * u(0.0, 0.3)))
        for k in CHANNELS:
            ch[k].append(row[k])
    s = {k: sum(ch[k]) for k in CHANNELS}
    for k in ("HIT", "MISS", "REQ", "READ", "WRITE", "ATOMIC"):
        c["TCC_%s_sum" % k] = s["TCC_" + k]
    for k in ("EA_RDREQ", "EA_RDREQ_LEVEL", "EA_WRREQ", "EA_WRREQ_LEVEL",
              "EA_ATOMIC", "EA_ATOMIC_LEVEL", "TOO_MANY_EA_WRREQS_STALL"):
        c["TCC_%s_sum" % k] = s["TCC_" + k]
    req = s["TCC_REQ"]
    c["TCC_BUSY_sum"] = min(int(req * u(3, 6) + CHAN * cycles * 0.05),
                            int(CHAN * cycles * 0.97))
    nc, uc, cc, rw = part(req, [0.86, 0.01, 0.03, 0.1])
    c["TCC_NC_REQ_sum"], c["TCC_UC_REQ_sum"] = nc, uc
    c["TCC_CC_REQ_sum"], c["TCC_RW_REQ_sum"] = cc, rw
    c["TCC_STREAMING_REQ_sum"] = int(req * u(0.0, 0.05))
    c["TCC_PROBE_sum"] = 0
    c["TCC_NORMAL_EVICT_sum"] = int(s["TCC_MISS"] * u(0.5, 0.9))
    erd, ewr = s["TCC_EA_RDREQ"], s["TCC_EA_WRREQ"]
    c["TCC_WRITEBACK_sum"] = ewr
    c["TCC_NORMAL_WRITEBACK_sum"] = int(ewr * u(0.9, 1.0))
    c["TCC_ALL_TC_OP_WB_WRITEBACK_sum"] = ewr - c["TCC_NORMAL_WRITEBACK_sum"]
    c["TCC_ALL_TC_OP_INV_EVICT_sum"] = 0
    c["TCC_EA_RDREQ_32B_sum"] = int(erd * u(0.02, 0.1))
    c["TCC_EA_RDREQ_DRAM_sum"] = int(erd * u(0.97, 1.0))
    c["TCC_EA_RD_UNCACHED_32B_sum"] = int(erd * u(0.0, 0.01))
    c["TCC_EA_WRREQ_64B_sum"] = int(ewr * u(0.85, 1.0))
    c["TCC_EA_WRREQ_DRAM_sum"] = int(ewr * u(0.97, 1.0))
    c["TCC_EA_WR_UNCACHED_32B_sum"] = int(ewr * u(0.0, 0.01))
    c["TCC_EA0_WRREQ_sum"] = ewr
    c["TCC_EA0_WRREQ_64B_sum"] = c["TCC_EA_WRREQ_64B_sum"]
    # workgroup manager (SPI) and command processor (CPC, CPF)
    c["SPI_CSN_BUSY"] = int(cycles * SE * PIPES * u(0.08, 0.25))
    c["SPI_CSN_NUM_THREADGROUPS"] = wgs
    c["SPI_CSN_WAVE"] = waves
    full = min(1.0, waves / (m["wpc"] * CU))       # how hard it pushes
    stall = lambda lo, hi: int(cycles * CU * full * u(lo, hi))
    c["SPI_RA_REQ_NO_ALLOC"] = int(c["GRBM_SPI_BUSY"] * SE * full *
                                   u(0.05, 0.4))
    c["SPI_RA_REQ_NO_ALLOC_CSN"] = c["SPI_RA_REQ_NO_ALLOC"]
    spi = lambda lo, hi: int(c["GRBM_SPI_BUSY"] * SE * full * u(lo, hi))
    c["SPI_RA_RES_STALL_CSN"] = spi(0.05, 0.3)
    c["SPI_RA_TMP_STALL_CSN"] = spi(0.0, 0.02)
    c["SPI_RA_WAVE_SIMD_FULL_CSN"] = stall(0.02, 0.2)
    c["SPI_RA_VGPR_SIMD_FULL_CSN"] = stall(0.0, 0.15) if m["wpc"] < 10 else 0
    c["SPI_RA_SGPR_SIMD_FULL_CSN"] = 0
    # these four count every fourth cycle
    c["SPI_RA_LDS_CU_FULL_CSN"] = stall(0.0, 0.1) // 4 if lds >= 16384 else 0
    c["SPI_RA_BAR_CU_FULL_CSN"] = stall(0.0, 0.02) // 4 if lds else 0
    c["SPI_RA_TGLIM_CU_FULL_CSN"] = stall(0.0, 0.05) // 4
    c["SPI_RA_WVLIM_STALL_CSN"] = stall(0.0, 0.05) // 4
    c["SPI_SWC_CSC_WR"] = waves * 4
    c["SPI_VWC_CSC_WR"] = waves * 2
    cpb = 2500 + int(cycles * u(0.01, 0.04))
    c["CPC_CPC_STAT_BUSY"] = cpb
    c["CPC_CPC_STAT_IDLE"] = cycles + 900 - cpb
    c["CPC_CPC_STAT_STALL"] = int(cpb * u(0.05, 0.3))
    c["CPC_CPC_TCIU_BUSY"] = int(cpb * u(0.1, 0.3))
    c["CPC_CPC_TCIU_IDLE"] = cycles - c["CPC_CPC_TCIU_BUSY"]
    c["CPC_CPC_UTCL2IU_BUSY"] = int(cpb * u(0.01, 0.05))
    c["CPC_CPC_UTCL2IU_IDLE"] = cycles - c["CPC_CPC_UTCL2IU_BUSY"]
    c["CPC_ME1_BUSY_FOR_PACKET_DECODE"] = int(cpb * u(0.3, 0.5))
    c["CPC_ME1_DC0_SPI_BUSY"] = int(cpb * u(0.4, 0.7))
    c["CPC_UTCL1_STALL_ON_TRANSLATION"] = int(cpb * u(0.0, 0.03))
    cfb = 1800 + int(cycles * u(0.005, 0.02))
    c["CPF_CPF_STAT_BUSY"] = cfb
    c["CPF_CPF_STAT_IDLE"] = cycles + 900 - cfb
    c["CPF_CPF_STAT_STALL"] = int(cfb * u(0.05, 0.25))
    c["CPF_CPF_TCIU_BUSY"] = int(cfb * u(0.1, 0.3))
    c["CPF_CPF_TCIU_IDLE"] = cycles - c["CPF_CPF_TCIU_BUSY"]
    c["CPF_CPF_TCIU_STALL"] = int(c["CPF_CPF_TCIU_BUSY"] * u(0.0, 0.2))
    c["CPF_CMP_UTCL1_STALL_ON_TRANSLATION"] = int(cfb * u(0.0, 0.03))
    # accumulate counters: time integrals of the level counters
    c["SQ_LEVEL_WAVES"] = 0
    c["SQ_LEVEL_WAVES_ACCUM"] = int(resident * cycles)
    c["SQ_IFETCH_LEVEL"] = 0
    c["SQ_IFETCH_LEVEL_ACCUM"] = int(ireq * u(28, 60))
    c["SQ_INST_LEVEL_LDS"] = 0
    c["SQ_INST_LEVEL_LDS_ACCUM"] = int(n["lds"] * u(60, 140))
    c["SQ_INST_LEVEL_SMEM"] = 0
    c["SQ_INST_LEVEL_SMEM_ACCUM"] = int(n["smem"] * u(150, 400))
    c["SQ_INST_LEVEL_VMEM"] = 0
    c["SQ_INST_LEVEL_VMEM_ACCUM"] = int(c["SQ_INSTS_VMEM"] * u(*lat) * 1.3)
    return c, ch

order = []
for k in KERNELS:
    order += [k] * k[1]
rng.shuffle(order)
t = 1411551767635712
pmc = []
accum = {k: [] for k in ACCUM}
for i, (name, _, mean, grid, wg, vgpr, lds, m) in enumerate(order):
    dur = int(mean * rng.uniform(0.85, 1.25))
    t += rng.randint(2000, 30000)
    start, end = t, t + dur
    t = end
    # draws kept from the first version of this script, so that the
    # timeline and the obj column stay as they were
    for lo, hi in [(100, 4000)] * CHAN + [(50, 1500)] * CHAN:
        rng.randint(lo, hi)
    obj = "0x7f%010x" % rng.getrandbits(40)
    for lo, hi in ((40, 900), (10, 80), (2, 12), (1, 16), (1, 8), (60, 100),
                   (0, 99)):
        rng.randint(lo, hi)
    rng.uniform(0.2, 0.6)
    skew = rng.randint(-90, 90)
    cycles = dur * MHZ // 1000
    c, ch = counters(grid, wg, lds, m, cycles)
    disp = [i, name, 0, grid, wg, lds, 0, vgpr, 0, 16, 64]
    row = disp + [obj] + [c[k] for k in COUNTERS]
    for k in CHANNELS:
        row += ch[k]
    pmc.append(row + [start, end])
    # each accumulate file is a run of its own: other cycles, other times
    for f, names in ACCUM.items():
        ac = cycles + int(cycles * u(-0.02, 0.02))
        vals = [c[k] if k not in ("SQ_CYCLES",) else ac * SE for k in names]
        accum[f].append(disp + [ac + 700, ac] + vals +
                        [c[f + "_ACCUM"], start - 900000,
                         end - 900000 + skew])

def write(name, header, rows):
    with open(os.path.join(out, name), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)

head = DISPATCH + ["obj"] + COUNTERS
for k in CHANNELS:
    head += ["%s[%d]" % (k, i) for i in range(CHAN)]
write("pmc_perf.csv", head + ["Start_Timestamp", "End_Timestamp"], pmc)
for f, names in ACCUM.items():
    write(f + ".csv", DISPATCH + ["GRBM_COUNT", "GRBM_GUI_ACTIVE"] + names +
          ["SQ_ACCUM_PREV_HIRES", "Start_Timestamp", "End_Timestamp"],
          accum[f])
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
      [["train_step", "python train.py --steps 1",
        "SQ|LDS|SQC|TA|TD|TCP|TCC|SPI|CPC|CPF",
        "Sun 30 Nov 2026 02:00:00 AM  (UTC)", 2, "example-host",
        "Example 64-Core Processor", "Example BIOS 1.0", "Debian GNU/Linux 12",
        "6.1.0-example", "", 527650760, "", "6.2.0", "113-EXAMPLE-001", "NA",
        "NA", "MI200", "gfx90a", 16, 8192, CU, 4, SE, 64, 1024, MAXW, MHZ,
        1600, MHZ, 1600, CHAN, 32, SQC, PIPES, 1638.4, 1, 32]])

# Empirical peaks of a made-up MI200-class device: bandwidths in GB/s,
# peaks in GFLOP/s (GOP/s for I8); each with the Low/High of its runs.
ROOF = [("HBMBw", 1400.0), ("L2Bw", 5000.0), ("L1Bw", 9200.0),
        ("LDSBw", 17700.0), ("FP32Flops", 21000.0), ("FP64Flops", 20300.0),
        ("MFMABF16Flops", 168000.0), ("MFMAF16Flops", 165000.0),
        ("MFMAF32Flops", 41400.0), ("MFMAF64Flops", 41400.0),
        ("MFMAI8Ops", 166000.0)]
rhead, rrow = ["device"], [0]
for k, v in ROOF:
    low = "hbmBwHigh" if k == "HBMBw" else None
    rhead += [k, k + "Low", low or k + "High"]
    rrow += [v, round(v * 0.999, 1), round(v * 1.001, 1)]
write("roofline.csv", rhead, [rrow])

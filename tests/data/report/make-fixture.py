#!/usr/bin/env python3
# make-fixture.py OUTDIR: write the hand-made build.json, boot records and
# console logs of tests/data/report/out/6.1 (see the README beside it). The
# .configs and config.json files are not written here. Deterministic.
import json, os, random, sys
root = sys.argv[1]
REL = "6.1.192"
random.seed(4)

CPUS = {
 "qemu64": dict(vendor="AuthenticAMD", name="QEMU Virtual CPU version 2.5+", fam=15, model=107, step=1,
                smpboot="AMD QEMU Virtual CPU version 2.5+ (family: 0xf, model: 0x6b, stepping: 0x1)",
                align=64, clflush=64, perf="Performance Events: PMU not available due to virtualization, using software events only.",
                flags=dict(lm=1, ht=0, pni=1, monitor=0, nopl=0), mhz="2993.018"),
 "nocona": dict(vendor="GenuineIntel", name="Intel(R) Xeon(TM) CPU 3.60GHz", fam=15, model=4, step=1,
                smpboot="Intel(R) Xeon(TM) CPU 3.60GHz (family: 0xf, model: 0x4, stepping: 0x1)",
                align=128, clflush=64, perf="Performance Events: unsupported Netburst CPU model 4 no PMU driver, software events only.",
                flags=dict(lm=1, ht=1, pni=1, monitor=1, nopl=0), mhz="2992.970"),
}

def log(flavour, cpu, l1, mem_g, threads, nonce, probe=True):
    c = CPUS[cpu]
    big = mem_g >= 5
    siblings = 2 if threads else 1
    t = [0.0]
    host = [0.31]
    out = []
    def k(s, dt=0.0004):
        t[0] += dt; host[0] += dt * 1.7 + 0.0003
        out.append("[+%8.3f] [%5d.%06d] %s" % (host[0], int(t[0]), int((t[0] % 1) * 1e6), s))
    def raw(s, dt=0.002):
        host[0] += dt
        out.append("[+%8.3f] %s" % (host[0], s))
    def note(s):
        out.append("[+%8.3f]! %s" % (host[0], s))
    note("nonce %s" % nonce)
    k("Linux version %s (root@kflavour) (gcc (Debian 12.2.0-14) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP %s" %
      (REL, "Wed Dec  3 00:4%d:1%d UTC 2025" % (random.randint(0, 9), random.randint(0, 9))), 0)
    cmd = "console=ttyS0 panic=-1 nr_cpus=2 kflavour.nonce=%s" % nonce
    k("Command line: " + cmd)
    k("x86/fpu: x87 FPU will use FXSAVE")
    k("signal: max sigframe size: 1440")
    k("BIOS-provided physical RAM map:")
    k("BIOS-e820: [mem 0x0000000000000000-0x000000000009fbff] usable")
    k("BIOS-e820: [mem 0x000000000009fc00-0x000000000009ffff] reserved")
    k("BIOS-e820: [mem 0x00000000000f0000-0x00000000000fffff] reserved")
    if big:
        k("BIOS-e820: [mem 0x0000000000100000-0x00000000bffdffff] usable")
        k("BIOS-e820: [mem 0x00000000bffe0000-0x00000000bfffffff] reserved")
        k("BIOS-e820: [mem 0x00000000feffc000-0x00000000feffffff] reserved")
        k("BIOS-e820: [mem 0x00000000fffc0000-0x00000000ffffffff] reserved")
        k("BIOS-e820: [mem 0x0000000100000000-0x000000017fffffff] usable")
    else:
        k("BIOS-e820: [mem 0x0000000000100000-0x000000001ffdffff] usable")
        k("BIOS-e820: [mem 0x000000001ffe0000-0x000000001fffffff] reserved")
        k("BIOS-e820: [mem 0x00000000feffc000-0x00000000feffffff] reserved")
        k("BIOS-e820: [mem 0x00000000fffc0000-0x00000000ffffffff] reserved")
    k("NX (Execute Disable) protection: active")
    k("SMBIOS 2.8 present.")
    k("DMI: QEMU Standard PC (i440FX + PIIX, 1996), BIOS 1.16.2-debian-1.16.2-1 04/01/2014")
    k("tsc: Fast TSC calibration using PIT")
    k("tsc: Detected %s MHz processor" % c["mhz"])
    k("last_pfn = 0x%x max_arch_pfn = 0x400000000" % (0x180000 if big else 0x1ffe0), 0.0009)
    if big:
        k("last_pfn = 0xbffe0 max_arch_pfn = 0x400000000")
    k("x86/PAT: Configuration [0-7]: WB  WT  UC- UC  WB  WT  UC- UC  ")
    k("RAMDISK: [mem %s]" % ("0x7ffa4000-0x7fffffff" if big else "0x1ff84000-0x1ffdffff"), 0.0071)
    k("ACPI: Early table checksum verification disabled")
    k("ACPI: RSDP 0x00000000000F5A50 000014 (v00 BOCHS )")
    top = "BFFE" if big else "1FFE"
    k("ACPI: RSDT 0x00000000%s1A7B 000034 (v01 BOCHS  BXPC     00000001 BXPC 00000001)" % top)
    k("ACPI: FACP 0x00000000%s192F 000074 (v01 BOCHS  BXPC     00000001 BXPC 00000001)" % top)
    k("ACPI: DSDT 0x00000000%s0040 0018EF (v01 BOCHS  BXPC     00000001 BXPC 00000001)" % top)
    k("ACPI: FACS 0x00000000%s0000 000040" % top)
    k("ACPI: APIC 0x00000000%s19A3 000080 (v01 BOCHS  BXPC     00000001 BXPC 00000001)" % top)
    k("Zone ranges:")
    k("  DMA      [mem 0x0000000000001000-0x0000000000ffffff]")
    k("  DMA32    [mem 0x0000000001000000-0x00000000%s]" % ("ffffffff" if big else "1ffdffff"))
    k("  Normal   %s" % ("[mem 0x0000000100000000-0x000000017fffffff]" if big else "empty"))
    k("Movable zone start for each node")
    k("Early memory node ranges")
    k("  node   0: [mem 0x0000000000001000-0x000000000009efff]")
    k("  node   0: [mem 0x0000000000100000-0x00000000%s]" % ("bffdffff" if big else "1ffdffff"))
    if big:
        k("  node   0: [mem 0x0000000100000000-0x000000017fffffff]")
    k("Initmem setup node 0 [mem 0x0000000000001000-0x00000000%s]" % ("17fffffff" if big else "1ffdffff"))
    k("On node 0, zone DMA: 1 pages in unavailable ranges")
    k("On node 0, zone DMA: 97 pages in unavailable ranges")
    k("On node 0, zone %s: 32 pages in unavailable ranges" % ("Normal" if big else "DMA32"))
    k("ACPI: PM-Timer IO Port: 0x608")
    k("ACPI: LAPIC_NMI (acpi_id[0xff] dfl dfl lint[0x1])")
    k("IOAPIC[0]: apic_id 0, version 17, address 0xfec00000, GSI 0-23")
    k("ACPI: Using ACPI (MADT) for SMP configuration information")
    k("smpboot: Allowing 2 CPUs, 0 hotplug CPUs")
    k("[mem 0x%s-0xfeffbfff] available for PCI devices" % ("c0000000" if big else "20000000"))
    k("clocksource: refined-jiffies: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 7645519600211568 ns")
    k("setup_percpu: NR_CPUS:8 nr_cpumask_bits:2 nr_cpu_ids:2 nr_node_ids:1")
    k("percpu: Embedded %d pages/cpu s%d r8192 d%d u2097152" % ((30, 116328, 28120) if l1 == 64 else (31, 120424, 28568)), 0.0011)
    k("Built 1 zonelists, mobility grouping on.  Total pages: %d" % (1031878 if big else 128872))
    k("Kernel command line: " + cmd)
    k("Dentry cache hash table entries: %d (order: %d, %d bytes, linear)" % ((524288, 10, 4194304) if big else (65536, 7, 524288)))
    k("Inode-cache hash table entries: %d (order: %d, %d bytes, linear)" % ((262144, 9, 2097152) if big else (32768, 6, 262144)))
    k("mem auto-init: stack:off, heap alloc:off, heap free:off")
    if big:
        k("software IO TLB: area num 2.")
        k("Memory: 4029188K/5242360K available (2598K kernel code, 658K rwdata, 716K rodata, 764K init, 1036K bss, 213016K reserved, 0K cma-reserved)", 0.009)
    else:
        k("Memory: 495880K/523768K available (2594K kernel code, 648K rwdata, 712K rodata, 764K init, 1028K bss, 27632K reserved, 0K cma-reserved)", 0.003)
    k("SLUB: HWalign=%d, Order=0-3, MinObjects=0, CPUs=2, Nodes=1" % c["align"])
    k("rcu: Hierarchical RCU implementation.")
    k("rcu: RCU calculated value of scheduler-enlistment delay is 25 jiffies.")
    k("NR_IRQS: 4352, nr_irqs: 440, preallocated irqs: 16")
    k("Console: colour VGA+ 80x25")
    k("printk: console [ttyS0] enabled", 0.01)
    k("ACPI: Core revision 20220331")
    k("APIC: Switch to symmetric I/O mode setup")
    k("..TIMER: vector=0x30 apic1=0 pin1=2 apic2=-1 pin2=-1", 0.04)
    k("clocksource: tsc-early: mask: 0xffffffffffffffff max_cycles: 0x2b2479b4c9e, max_idle_ns: 440795244210 ns")
    k("Calibrating delay loop (skipped), value calculated using timer frequency.. %.2f BogoMIPS (lpj=%d)" % (float(c["mhz"]) * 2, int(float(c["mhz"]) * 4000)))
    k("pid_max: default: 32768 minimum: 301")
    k("Mount-cache hash table entries: %d (order: %d, %d bytes, linear)" % ((16384, 5, 131072) if big else (1024, 1, 8192)))
    k("Mountpoint-cache hash table entries: %d (order: %d, %d bytes, linear)" % ((16384, 5, 131072) if big else (1024, 1, 8192)))
    k("Last level iTLB entries: 4KB 0, 2MB 0, 4MB 0")
    k("Last level dTLB entries: 4KB 0, 2MB 0, 4MB 0, 1GB 0")
    k("Spectre V1 : Mitigation: usercopy/swapgs barriers and __user pointer sanitization")
    k("Spectre V2 : Vulnerable")
    k("Speculative Store Bypass: Vulnerable")
    k("smpboot: CPU0: " + c["smpboot"], 0.03)
    k(c["perf"])
    k("rcu: Hierarchical SRCU implementation.")
    k("smp: Bringing up secondary CPUs ...")
    k("x86: Booting SMP configuration:")
    k(".... node  #0, CPUs:      #1", 0.02)
    if threads:
        k("smpboot: CPU 1 Converting physical 0 to logical die 0")
    k("smp: Brought up 1 node, 2 CPUs", 0.05)
    k("smpboot: Max logical packages: %d" % (1 if threads else 2))
    k("smpboot: Total of 2 processors activated (%.2f BogoMIPS)" % (float(c["mhz"]) * 4))
    k("devtmpfs: initialized")
    k("clocksource: jiffies: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 7645041785100000 ns")
    k("futex hash table entries: 512 (order: 3, 32768 bytes, linear)")
    k("ACPI: Added _OSI(Module Device)")
    k("ACPI: Added _OSI(Processor Device)")
    k("ACPI: 1 ACPI AML tables successfully acquired and loaded", 0.02)
    k("ACPI: Interpreter enabled")
    k("ACPI: PM: (supports S0 S5)")
    k("ACPI: Using IOAPIC for interrupt routing")
    k("PCI: Using host bridge windows from ACPI; if necessary, use \"pci=nocrs\" and report a bug")
    k("ACPI: PCI Root Bridge [PCI0] (domain 0000 [bus 00-ff])", 0.03)
    k("PCI host bridge to bus 0000:00")
    k("pci 0000:00:00.0: [8086:1237] type 00 class 0x060000")
    k("pci 0000:00:01.0: [8086:7000] type 00 class 0x060100")
    k("pci 0000:00:01.3: quirk: [io  0x0600-0x063f] claimed by PIIX4 ACPI")
    k("ACPI: PCI: Interrupt link LNKA configured for IRQ 10")
    if big:
        k("PCI-DMA: Using software bounce buffering for IO (SWIOTLB)")
        k("software IO TLB: mapped [mem 0x00000000bbfe0000-0x00000000bffe0000] (64MB)")
    k("clocksource: Switched to clocksource tsc-early", 0.02)
    k("PCI: CLS 0 bytes, default %d" % c["clflush"])
    k("Trying to unpack rootfs image as initramfs...")
    k("workingset: timestamp_bits=62 max_order=%d bucket_order=0" % (21 if big else 17))
    k("Serial: 8250/16550 driver, 4 ports, IRQ sharing disabled")
    k("00:04: ttyS0 at I/O 0x3f8 (irq = 4, base_baud = 115200) is a 16550A", 0.03)
    if probe:
        k("flavour-probe: config_cpu=%s" % ("MPSC" if l1 == 128 else "GENERIC_CPU"))
        k("flavour-probe: l1_cache_bytes=%d" % l1)
        k("flavour-probe: cache_alignment=%d" % c["align"])
        k("flavour-probe: line_verdict=%s" % ("match" if l1 == c["align"] else "too-small" if l1 < c["align"] else "too-large"))
        k("flavour-probe: swiotlb=%d" % (1 if big else 0))
    k("KTAP version 1")
    k("1..1")
    k("    KTAP version 1")
    k("    # Subtest: x86_flavour")
    k("    1..3")
    k("    ok 1 x86_flavour_l1_matches_config")
    k("    ok 2 x86_flavour_cache_alignment_known")
    k("    ok 3 x86_flavour_siblings_counted")
    k("# x86_flavour: pass:3 fail:0 skip:0 total:3")
    k("# Totals: pass:3 fail:0 skip:0 total:3")
    k("ok 1 x86_flavour")
    k("Freeing initrd memory: 368K", 0.02)
    k("clocksource: tsc: mask: 0xffffffffffffffff max_cycles: 0x2b2479b4c9e, max_idle_ns: 440795244210 ns")
    k("clocksource: Switched to clocksource tsc")
    k("Freeing unused kernel image (initmem) memory: 764K")
    k("Write protecting the kernel read-only data: 6144k")
    k("Freeing unused kernel image (text/rodata gap) memory: %dK" % (1500 if l1 == 64 else 1496))
    k("Freeing unused kernel image (rodata/data gap) memory: %dK" % (1336 if l1 == 64 else 1332))
    k("Run /init as init process")
    for s in ["KTAP version 1", "1..1", "    KTAP version 1", "    # Subtest: kflavour_init", "    1..7",
              "    ok 1 mount_proc", "    ok 2 mount_sys", "    ok 3 mount_devtmpfs", "    ok 4 mount_debugfs",
              "    ok 5 cpuinfo_lm", "    ok 6 cpus_online", "    %s 7 probe_readable%s" % ("ok", "" if probe else " # SKIP no probe"),
              "    ok 8 debug_exit_ioperm", "ok 1 kflavour_init"]:
        raw(s, 0.004)
    facts = [("uname.release", REL), ("cpu.vendor", c["vendor"]), ("cpu.family", str(c["fam"])),
             ("cpu.model", str(c["model"])), ("cpu.model_name", c["name"])]
    for f, v in c["flags"].items():
        facts.append(("cpu.flags." + f, str(v)))
    facts += [("cpu.clflush_size", str(c["clflush"])), ("cpu.cache_alignment", str(c["align"])),
              ("cpu.siblings", str(siblings)), ("cpu.cores", "1"), ("cpu.address_sizes", "40 bits physical, 48 bits virtual"),
              ("cpus.online", "0-1"), ("cpu0.thread_siblings_list", "0-1" if threads else "0"),
              ("cpu1.thread_siblings_list", "0-1" if threads else "1")]
    if probe:
        facts += [("probe.config_cpu", "MPSC" if l1 == 128 else "GENERIC_CPU"), ("probe.l1_cache_bytes", str(l1)),
                  ("probe.cache_alignment", str(c["align"])),
                  ("probe.line_verdict", "match" if l1 == c["align"] else "too-small" if l1 < c["align"] else "too-large"),
                  ("probe.swiotlb", "1" if big else "0")]
    for kk, v in facts:
        raw("kf: %s=%s" % (kk, v), 0.001)
    up = t[0] + 0.05
    raw("kflavour-uptime %.2f" % up)
    raw("kflavour-end %s" % nonce)
    note("qemu exit status 33")
    return "\n".join(out) + "\n", dict(facts), host[0], up, cmd

def record(flavour, cpu, cpustring, text, facts, wall, up, cmd, mem, smp, verdict="pass", expected="pass", exit_status=33, ktap=None, warnings=()):
    return {
        "flavour": flavour, "kver": "6.1", "cpu": cpu, "cpu_string": cpustring,
        "qemu_version": "7.2.19 (Debian 1:7.2+dfsg-7+deb12u16)",
        "command": ["qemu-system-x86_64", "-accel", "tcg", "-cpu", cpustring, "-m", mem, "-smp", smp,
                    "-nographic", "-no-reboot", "-kernel", "out/6.1/%s/arch/x86/boot/bzImage" % flavour,
                    "-initrd", "out/6.1/initramfs.cpio.gz", "-append", cmd,
                    "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04"],
        "cmdline": cmd, "verdict": verdict, "expected": expected, "exit_status": exit_status,
        "wall_seconds": round(wall, 2), "guest_seconds": round(up, 2) if up is not None else None,
        "ktap": ktap if ktap is not None else {"passed": 11, "failed": 0, "skipped": 0, "results": [
            {"suite": "x86_flavour", "name": "x86_flavour_l1_matches_config", "ok": True},
            {"suite": "x86_flavour", "name": "x86_flavour_cache_alignment_known", "ok": True},
            {"suite": "x86_flavour", "name": "x86_flavour_siblings_counted", "ok": True},
            {"suite": "kflavour_init", "name": "mount_proc", "ok": True}]},
        "warnings": list(warnings), "facts": facts,
    }

QCPU = {"qemu64": "qemu64", "nocona": "qemu64,vendor=GenuineIntel,family=15,model=4,stepping=1,+pni,+monitor,+ht,model-id=Intel(R) Xeon(TM) CPU 3.60GHz",
        "i686": "pentium3"}

def put(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)

def boot(flavour, cpu, l1, mem, smp, threads, nonce, wall, probe=True, drop=()):
    text, facts, _, up, cmd = log(flavour, cpu, l1, 5 if mem == "5G" else 0.5, threads, nonce, probe)
    for d in drop:
        facts.pop(d, None)
    put("%s/%s/boot/%s.log" % (root, flavour, cpu), text)
    put("%s/%s/boot/%s.json" % (root, flavour, cpu),
        json.dumps(record(flavour, cpu, QCPU[cpu], text, facts, wall, up, cmd, mem, smp), indent=2) + "\n")

boot("generic", "qemu64", 64, "512M", "2", False, "9c41e07d", 2.41)
# No probe facts here: the report must fall back to its own comparison and the console.
boot("generic", "nocona", 64, "512M", "2", False, "1b7f3a52", 2.56, probe=False)
boot("mpsc", "nocona", 128, "5G", "2,sockets=1,cores=1,threads=2", True, "e2d8c619", 3.12)
boot("mpsc", "qemu64", 128, "5G", "2,sockets=1,cores=1,threads=2", True, "4a06b8f3", 2.97)

# mpsc on a CPU without long mode: the kernel's setup code refuses it.
cmd = "console=ttyS0 panic=-1 nr_cpus=2 kflavour.nonce=70c3d2aa"
text = "\n".join([
    "[+   0.000]! nonce 70c3d2aa",
    "[+   0.912] This kernel requires an x86-64 CPU, but only detected an i686 CPU.",
    "[+   0.913] Unable to boot - please use a kernel appropriate for your CPU.",
    "[+   0.914]! qemu killed: refused (the kernel stops, QEMU keeps running)",
]) + "\n"
put("%s/mpsc/boot/i686.log" % root, text)
put("%s/mpsc/boot/i686.json" % root, json.dumps(record("mpsc", "i686", "pentium3", text, {}, 0.95, None, cmd, "5G",
    "2,sockets=1,cores=1,threads=2", verdict="refused", expected="refused", exit_status=None,
    ktap={"passed": 0, "failed": 0, "skipped": 0, "results": []},
    warnings=["This kernel requires an x86-64 CPU, but only detected an i686 CPU."]), indent=2) + "\n")

def build(flavour, march, mtune, bz, text, data, percpu, cl, wall):
    b = {"flavour": flavour, "kver": "6.1", "release": REL, "wall_seconds": wall, "cpu_seconds": round(wall * 1.9, 1),
         "ccache": {"enabled": True, "hits": 0, "misses": 1012}, "distcc_hosts": None, "warnings": 0, "objects": 1012,
         "bzimage_bytes": bz, "bzimage_sha256": "%064x" % random.getrandbits(256),
         "sections": {".text": text, ".data": data, ".bss": 1052672, ".data..percpu": percpu, ".data..cacheline_aligned": cl},
         "march": march, "mtune": mtune, "flags_from": "init/main.o.cmd"}
    put("%s/%s/build.json" % (root, flavour), json.dumps(b, indent=2) + "\n")

build("generic", None, "generic", 1426976, 2658304, 667648, 116736, 24576, 199.4)
build("mpsc", "nocona", None, 1439264, 2662400, 677888, 119296, 32768, 204.1)

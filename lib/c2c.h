/* SPDX-License-Identifier: GPL-2.0 */
/*
 * c2c.h - what the guest init (boot/init.c), the TCG plugin (c2c/plugin.c)
 * and the record tool (c2c/record.c) agree on (docs/c2c.md). Plain C: the
 * static init and the plugin include it, neither links the host's lib/.
 *
 * The window markers are 8-byte NOPs, "nopl 0x4b462c01(%rax,%rax,1)"
 * (open) and "nopl 0x4b462c00(%rax,%rax,1)" (close): 0f 1f 84 00 and a
 * 32-bit displacement "KF" 0x2c 0x01/0x00. Any x86-64 CPU runs them as a
 * NOP (the init runs on every model), no compiler emits that displacement,
 * and the plugin finds them at translation time by their bytes
 * (qemu_plugin_insn_data), so they cost nothing outside a c2c run.
 */
#ifndef KF_C2C_H
#define KF_C2C_H

#define KF_C2C_MARKER_LEN	8
#define KF_C2C_OPEN_BYTES	0x0f, 0x1f, 0x84, 0x00, 0x01, 0x2c, 0x46, 0x4b
#define KF_C2C_CLOSE_BYTES	0x0f, 0x1f, 0x84, 0x00, 0x00, 0x2c, 0x46, 0x4b
#define KF_C2C_OPEN_ASM		".byte 0x0f,0x1f,0x84,0x00,0x01,0x2c,0x46,0x4b"
#define KF_C2C_CLOSE_ASM	".byte 0x0f,0x1f,0x84,0x00,0x00,0x2c,0x46,0x4b"

static const unsigned char kf_c2c_open[KF_C2C_MARKER_LEN] __attribute__((unused)) = { KF_C2C_OPEN_BYTES };
static const unsigned char kf_c2c_close[KF_C2C_MARKER_LEN] __attribute__((unused)) = { KF_C2C_CLOSE_BYTES };

/* The kernel command line parameter naming the workload; the init says
 * what it ran as facts (kf: c2c.<key>=value). */
#define KF_C2C_PARAM		"kflavour.c2c"

/* The first line of the plugin's raw output. */
#define KF_C2C_RAW_MAGIC	"kf-c2c-raw 2"

#endif /* KF_C2C_H */

"""kernel_shape.py: the files of a tree of kernel shape, for gen-kernel.py scale.

    files(seed, n) -> iterator of (path, bytes)

N C sources and headers (about 60% .c, 40% .h) under the kernel's top
directories, in the proportions of a real tree (drivers about half,
then arch, include, fs, net, sound, tools ...), some 5 KB each on
average, so that 60,000 of them are a few hundred MB of text: what
fixscan reads to know which names a branch has.  Each file is C of the
kernel's look: an SPDX line, includes, a header's register macros,
structs, enums and prototypes, a source's functions calling the core
API (declared in include/linux/ headers written first: kmalloc,
mutex_lock, readl, dev_err ...) and its own helpers, comments.  The
names are the file's own (a prefix from its directory and number) and
the core API's: a tree of 60,000 files has some two million distinct
names, as a kernel tree does.

The second-level directories are none of gen-kernel.py's SCALE_FILES
(STATIC_AVOID): the static tree and the files the history changes share
only top directories, so a top directory's tree is the union of the two.

Deterministic: the same SEED and N always give the same files.  Python 3
standard library only.
"""

MASK64 = (1 << 64) - 1

# Second-level names the history's files use: never a static one.
STATIC_AVOID = {
    ('arch', 'x86'), ('arch', 'arm64'), ('arch', 'powerpc'), ('net', 'ipv4'),
    ('net', 'netfilter'), ('block', 'bio.c'), ('drivers', 'pci'), ('drivers', 'media'),
    ('drivers', 'regulator'), ('drivers', 'usb'), ('drivers', 'iio'), ('drivers', 'gpu'),
    ('fs', 'ext4'), ('mm', 'page_alloc.c'), ('kernel', 'sched'), ('sound', 'core'),
}

TOPS = (
    ('drivers', 500, 'net scsi staging md mtd infiniband input hid hwmon i2c spi tty clk '
                     'soc phy firmware nvme char misc mmc leds thermal watchdog video ata '
                     'dma edac rtc remoteproc bluetooth crypto acpi base block cpufreq mfd '
                     'pinctrl platform power ptp pwm reset target vfio virtio xen nfc'),
    ('arch', 140, 'arm mips riscv s390 sparc sh loongarch m68k alpha parisc xtensa '
                  'openrisc csky microblaze arc hexagon um'),
    ('include', 90, 'uapi net sound asm-generic trace drm media acpi soc kvm rdma scsi xen '
                    'crypto keys'),
    ('fs', 70, 'btrfs xfs nfs f2fs ocfs2 smb ceph fuse overlayfs proc sysfs jbd2 '
               'fat ntfs3 erofs gfs2 udf isofs nilfs2 ubifs'),
    ('net', 50, 'core ipv6 bluetooth wireless mac80211 sched sunrpc bridge tipc rxrpc '
                'sctp xfrm unix packet'),
    ('sound', 30, 'soc pci usb hda isa firewire drivers'),
    ('tools', 30, 'perf testing lib bpf objtool power'),
    ('kernel', 15, 'bpf trace events irq locking rcu time cgroup power printk dma'),
    ('lib', 15, 'crypto zstd xz raid6 math kunit lz4 zlib_deflate'),
    ('mm', 8, 'kasan damon kfence kmsan'),
    ('security', 8, 'selinux apparmor smack keys integrity tomoyo'),
    ('crypto', 6, 'asymmetric_keys async_tx'),
    ('samples', 4, 'bpf kprobes ftrace'),
    ('virt', 2, 'kvm lib'),
    ('block', 2, 'partitions'),
)

WORDS = ('qla', 'mlx', 'bnx', 'ixg', 'rtl', 'ath', 'brcm', 'iwl', 'nvk', 'amd', 'intel',
         'tegra', 'omap', 'imx', 'sun', 'meson', 'rk', 'exy', 'mtk', 'qcom', 'bcm', 'ti',
         'st', 'nxp', 'hisi', 'mvs', 'pm', 'cx', 'em', 'sdhci', 'dw', 'fsl', 'xlnx', 'ads',
         'max', 'lp', 'tps', 'da', 'wm', 'cs', 'ak', 'es', 'rt', 'nau', 'ssm')
VERBS = ('probe', 'remove', 'init', 'exit', 'reset', 'start', 'stop', 'enable', 'disable',
         'read', 'write', 'update', 'setup', 'config', 'suspend', 'resume', 'flush', 'poll',
         'alloc', 'free', 'map', 'unmap', 'submit', 'complete', 'handle', 'process', 'check',
         'wait', 'wake', 'get', 'put', 'set', 'clear', 'lock', 'unlock', 'register')
OBJS = ('irq', 'dma', 'ring', 'queue', 'buf', 'desc', 'reg', 'clk', 'pm', 'fw', 'phy', 'link',
        'port', 'chan', 'ctx', 'cmd', 'req', 'stats', 'mode', 'state', 'power', 'mem', 'page',
        'tx', 'rx', 'hw', 'cfg', 'caps', 'event', 'timer', 'work', 'dev', 'bus', 'slot')
FIELDS = ('flags', 'count', 'index', 'size', 'len', 'state', 'mode', 'status', 'mask',
          'offset', 'addr', 'irq', 'id', 'version', 'users', 'refs', 'head', 'tail', 'budget',
          'timeout', 'retries', 'speed', 'width', 'depth', 'level', 'limit', 'rate', 'period')

# The core API, declared in include/linux/ headers the sources include.
CORE = (
    ('slab', ('void *kmalloc(size_t size, gfp_t flags);', 'void *kzalloc(size_t size, gfp_t flags);',
              'void *kcalloc(size_t n, size_t size, gfp_t flags);', 'void kfree(const void *p);',
              'void *kmalloc_array(size_t n, size_t size, gfp_t flags);'),
     ('GFP_KERNEL', 'GFP_ATOMIC', 'GFP_NOWAIT')),
    ('mutex', ('void mutex_lock(struct mutex *lock);', 'void mutex_unlock(struct mutex *lock);',
               'int mutex_trylock(struct mutex *lock);', 'void mutex_init(struct mutex *lock);'),
     ('MUTEX_FLAGS',)),
    ('spinlock', ('void spin_lock(spinlock_t *lock);', 'void spin_unlock(spinlock_t *lock);',
                  'void spin_lock_irqsave(spinlock_t *lock, unsigned long flags);',
                  'void spin_unlock_irqrestore(spinlock_t *lock, unsigned long flags);'),
     ('SPIN_LOCK_UNLOCKED',)),
    ('io', ('u32 readl(const void __iomem *addr);', 'void writel(u32 v, void __iomem *addr);',
            'u16 readw(const void __iomem *addr);', 'void writew(u16 v, void __iomem *addr);'),
     ('IO_SPACE_LIMIT',)),
    ('device', ('int dev_err(const struct device *dev, const char *fmt, ...);',
                'int dev_warn(const struct device *dev, const char *fmt, ...);',
                'int dev_dbg(const struct device *dev, const char *fmt, ...);',
                'void *dev_get_drvdata(const struct device *dev);',
                'void dev_set_drvdata(struct device *dev, void *data);'),
     ('DEVICE_NAME_MAX',)),
    ('errno', (), ('EINVAL', 'ENOMEM', 'EBUSY', 'EIO', 'ENODEV', 'ETIMEDOUT', 'EAGAIN',
                   'EOPNOTSUPP')),
    ('delay', ('void msleep(unsigned int ms);', 'void udelay(unsigned long us);',
               'void usleep_range(unsigned long min, unsigned long max);'), ('HZ',)),
    ('bits', (), ('BITS_PER_LONG',)),
    ('types', ('typedef unsigned int u32;', 'typedef unsigned short u16;',
               'typedef unsigned char u8;', 'typedef unsigned long long u64;',
               'typedef unsigned int gfp_t;', 'typedef _Bool bool;'), ('NULL', 'true', 'false')),
    ('workqueue', ('bool schedule_work(struct work_struct *work);',
                   'bool cancel_work_sync(struct work_struct *work);'), ('WQ_UNBOUND',)),
    ('interrupt', ('int request_irq(unsigned int irq, void *handler, unsigned long flags, '
                   'const char *name, void *dev);', 'void free_irq(unsigned int irq, void *dev);'),
     ('IRQ_HANDLED', 'IRQ_NONE', 'IRQF_SHARED')),
    ('list', ('void list_add(struct list_head *n, struct list_head *head);',
              'void list_del(struct list_head *entry);'), ('LIST_POISON1',)),
    ('kernel', ('int pr_info(const char *fmt, ...);', 'int pr_err(const char *fmt, ...);',
                'int snprintf(char *buf, size_t size, const char *fmt, ...);'),
     ('ARRAY_SIZE', 'BIT', 'GENMASK', 'WARN_ON', 'min', 'max', 'container_of')),
)


class Rng:
    """A 64-bit LCG seeded through splitmix64's finalizer."""

    def __init__(self, seed):
        x = (seed + 0x9e3779b97f4a7c15) & MASK64
        x = ((x ^ (x >> 30)) * 0xbf58476d1ce4e5b9) & MASK64
        x = ((x ^ (x >> 27)) * 0x94d049bb133111eb) & MASK64
        self.x = x ^ (x >> 31)

    def below(self, n):
        self.x = (self.x * 6364136223846793005 + 1442695040888963407) & MASK64
        return (self.x >> 17) % n


def core_headers():
    out = []
    for name, protos, consts in CORE:
        guard = '_LINUX_%s_H' % name.upper()
        lines = ['/* SPDX-License-Identifier: GPL-2.0 */', '#ifndef ' + guard,
                 '#define ' + guard, '', '#include <linux/types.h>', '']
        for k, c in enumerate(consts):
            lines.append('#define %s\t%d' % (c, k + 1))
        lines.append('struct %s_core {\n\tunsigned long %s_state;\n\tstruct mutex lock;\n'
                     '\tstruct list_head list;\n\tstruct work_struct work;\n};' % (name, name))
        lines.extend(protos)
        lines += ['', '#endif /* %s */' % guard, '']
        out.append(('include/linux/%s.h' % name, '\n'.join(lines).encode()))
    return out


# Function bodies: @P@ the file's prefix (lower case), @Q@ upper case, @F@
# the function's name, @A@ a field, @B@ another, @O@ a helper of the file.
BODIES = (
    '{\n\tunsigned long flags;\n\tu32 val;\n\n\tspin_lock_irqsave(&d->lock, flags);\n'
    '\tval = readl(d->base + @Q@_REG_CTRL);\n\tval |= @Q@_CTRL_ENABLE;\n'
    '\twritel(val, d->base + @Q@_REG_CTRL);\n\td->@A@++;\n'
    '\tspin_unlock_irqrestore(&d->lock, flags);\n\treturn 0;\n}\n',
    '{\n\tstruct @P@_buf *buf;\n\n\tbuf = kzalloc(sizeof(*buf), GFP_KERNEL);\n\tif (!buf)\n'
    '\t\treturn -ENOMEM;\n\tbuf->@A@ = d->@B@;\n\tlist_add(&buf->list, &d->bufs);\n'
    '\treturn @O@(d, buf->@A@);\n}\n',
    '{\n\tint ret, i;\n\n\t/* retry a few times: the hardware may be busy */\n'
    '\tfor (i = 0; i < @Q@_MAX_RETRIES; i++) {\n\t\tret = @O@(d, i);\n\t\tif (ret != -EBUSY)\n'
    '\t\t\tbreak;\n\t\tusleep_range(100, 200);\n\t}\n\tif (ret)\n'
    '\t\tdev_err(d->dev, "@F@ failed: %d\\n", ret);\n\treturn ret;\n}\n',
    '{\n\tmutex_lock(&d->mutex);\n\tif (d->state != @Q@_STATE_RUNNING) {\n'
    '\t\tmutex_unlock(&d->mutex);\n\t\treturn -EINVAL;\n\t}\n\td->@A@ = min(d->@A@, d->@B@);\n'
    '\tmutex_unlock(&d->mutex);\n\treturn 0;\n}\n',
    '{\n\tu32 status = readl(d->base + @Q@_REG_STATUS);\n\n\tif (!(status & @Q@_IRQ_MASK))\n'
    '\t\treturn IRQ_NONE;\n\twritel(status, d->base + @Q@_REG_STATUS);\n'
    '\tschedule_work(&d->work);\n\treturn IRQ_HANDLED;\n}\n',
    '{\n\tstruct @P@_dev *d = container_of(w, struct @P@_dev, work);\n\n'
    '\tif (WARN_ON(!d->@A@))\n\t\treturn;\n\t@O@(d, d->@A@);\n\td->@B@ = 0;\n}\n',
    '{\n\tint ret;\n\n\tret = request_irq(d->irq, @O@, IRQF_SHARED, "@P@", d);\n\tif (ret)\n'
    '\t\treturn ret;\n\td->@A@ = BIT(@Q@_FEATURE_SHIFT);\n\tdev_set_drvdata(d->dev, d);\n'
    '\treturn 0;\n}\n',
    '{\n\tif (d->@A@ >= ARRAY_SIZE(d->table))\n\t\treturn -EINVAL;\n'
    '\td->table[d->@A@] = GENMASK(@Q@_FIELD_HI, @Q@_FIELD_LO);\n'
    '\tpr_info("@P@: entry %u set\\n", d->@A@);\n\treturn @O@(d, d->table[d->@A@]);\n}\n',
)


def source(path, p, k, r, heads):
    q = p.upper()
    lines = ['// SPDX-License-Identifier: GPL-2.0-only', '/*',
             ' * %s - the %s driver core' % (path.rsplit('/', 1)[-1], p),
             ' *',
             ' * Copyright (C) 20%02d The Fixscan Bench Authors' % (10 + k % 15),
             ' */', '']
    for h in heads:
        lines.append('#include <%s>' % h)
    lines += ['', '#define %s_MAX_RETRIES\t%d' % (q, 3 + k % 5), '']
    nfn = 10 + r.below(14)
    names = ['%s_%s_%s' % (p, VERBS[r.below(len(VERBS))], OBJS[r.below(len(OBJS))])
             for _ in range(nfn)]
    seen = set()
    for j, fn in enumerate(names):
        if fn in seen:
            fn = '%s_%d' % (fn, j)
        seen.add(fn)
        helper = names[(j + 1) % nfn]
        if j % 4 == 0:
            lines.append('/*\n * %s - %s the %s of a %s device.\n *\n * Called with the '
                         'device\'s mutex held; returns 0 or an error code.\n */'
                         % (fn, VERBS[j % len(VERBS)], OBJS[j % len(OBJS)], p))
        body = BODIES[r.below(len(BODIES))]
        body = (body.replace('@P@', p).replace('@Q@', q).replace('@F@', fn)
                .replace('@O@', helper).replace('@A@', FIELDS[r.below(len(FIELDS))])
                .replace('@B@', FIELDS[r.below(len(FIELDS))]))
        lines.append('static int %s(struct %s_dev *d, u32 arg)\n%s' % (fn, p, body))
    lines.append('MODULE_DESCRIPTION("%s driver");\nMODULE_LICENSE("GPL");\n' % p)
    return '\n'.join(lines).encode()


def header(p, k, r):
    q = p.upper()
    guard = '_%s_H' % q
    lines = ['/* SPDX-License-Identifier: GPL-2.0 */', '#ifndef ' + guard, '#define ' + guard,
             '', '#include <linux/types.h>', '#include <linux/mutex.h>', '']
    for j, reg in enumerate(('CTRL', 'STATUS', 'IRQ', 'DMA_LO', 'DMA_HI', 'CFG', 'VERSION')):
        lines.append('#define %s_REG_%s\t0x%04x' % (q, reg, j * 4))
    for j in range(r.below(30)):
        lines.append('#define %s_REG_%s_%d\t0x%04x' % (q, OBJS[j % len(OBJS)].upper(), j,
                                                      0x100 + j * 4))
    lines += ['#define %s_CTRL_ENABLE\tBIT(0)' % q, '#define %s_IRQ_MASK\tGENMASK(7, 0)' % q,
              '#define %s_FEATURE_SHIFT\t%d' % (q, k % 16),
              '#define %s_FIELD_HI\t15' % q, '#define %s_FIELD_LO\t8' % q, '',
              'enum %s_state {' % p]
    for s in ('IDLE', 'RUNNING', 'SUSPENDED', 'ERROR'):
        lines.append('\t%s_STATE_%s,' % (q, s))
    lines += ['};', '', 'struct %s_buf {\n\tstruct list_head list;\n\tu32 %s;\n};' %
              (p, FIELDS[k % len(FIELDS)]), '', 'struct %s_dev {' % p,
              '\tstruct device *dev;', '\tvoid __iomem *base;', '\tspinlock_t lock;',
              '\tstruct mutex mutex;', '\tstruct work_struct work;',
              '\tstruct list_head bufs;', '\tenum %s_state state;' % p, '\tint irq;',
              '\tu32 table[16];']
    for f in FIELDS:
        lines.append('\tu32 %s;' % f)
    lines += ['};', '']
    for j in range(3 + r.below(6)):
        lines.append('int %s_%s_%s(struct %s_dev *d, u32 arg);'
                     % (p, VERBS[(k + j) % len(VERBS)], OBJS[(k * 3 + j) % len(OBJS)], p))
    lines += ['', '#endif /* %s */' % guard, '']
    return '\n'.join(lines).encode()


def files(seed, n):
    """(path, bytes) of N files, core headers first."""
    core = core_headers()
    for f in core:
        yield f
    n -= len(core)
    total = sum(w for _, w, _ in TOPS)
    r = Rng(seed)
    k = 0
    common = ['linux/%s.h' % c[0] for c in CORE]
    for top, w, subs in TOPS:
        subs = [s for s in subs.split() if (top, s) not in STATIC_AVOID]
        count = n * w // total if top != TOPS[-1][0] else n - k
        for j in range(count):
            sub = subs[j % len(subs)]
            group = j // (len(subs) * 24)
            p = '%s_%s%d' % (sub.replace('-', '_'), WORDS[k % len(WORDS)], k)
            d = '%s/%s/%s%d' % (top, sub, WORDS[(k // 7) % len(WORDS)], group)
            if r.below(10) < 4:
                yield '%s/%s.h' % (d, p), header(p, k, r)
            else:
                heads = common[:4 + r.below(len(common) - 4)] + ['%s/%s.h' % (d, p)]
                yield '%s/%s.c' % (d, p), source('%s/%s.c' % (d, p), p, k, r, heads)
            k += 1

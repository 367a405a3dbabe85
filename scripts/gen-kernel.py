#!/usr/bin/env python3
"""gen-kernel.py: deterministic kernel-like git histories for fixscan.

    gen-kernel.py sample DIR
        Build the small sample repository in DIR (git init + git fast-import)
        and write DIR/answers.json, a description of every commit and the
        findings expected for the sample review threads.

    gen-kernel.py maildir REPO OUTDIR [--only NAME]
        Write the sample mail: OUTDIR/review-4.4, OUTDIR/review-4.5 and
        OUTDIR/lists (each a maildir) plus OUTDIR/README.md.  With --only,
        write just that maildir, directly into OUTDIR.  REPO must be a
        repository built by "sample"; its ids are checked against the spec.

    gen-kernel.py multi DIR
        Build the multi-branch sample in DIR: a small repository in
        DIR/kernel (mainline and the stable branches 5.4, 5.8, 5.10, 5.15
        and 6.1), the review threads of four branches posted the same
        day with a FAILED and an "added to the stable tree" notice in the
        maildir DIR/mail/multi, and DIR/answers.json (the commit ids by
        name and the cross-branch findings expected).  It stands apart
        from "sample": that one and its answers stay as they are.

    gen-kernel.py scale DIR [--mainline N] [--stable M] [--files F]
        Stream a large history (default 1,300,000 mainline commits and
        40,000 stable backports) into a new repository in DIR.  With
        --files F (make bench: 60,000) its tree has F more C files of
        kernel shape (scripts/kernel_shape.py, a few hundred MB), and
        late in mainline, after every stable branch's fork, one commit
        adds LATE_FILE, a header of helpers the branches lack.

    gen-kernel.py scale --append K DIR
        Add K mainline commits on top of a repository made by "scale".

Everything is a pure function of the spec: fixed names, mails, dates and
file contents, so the same spec always gives the same commit ids.  The ids
are computed here (git's object format is simple: "<type> <len>\\0<body>",
SHA-1) and checked against what git wrote; a mismatch is a fatal error.

Python 3 standard library only.
"""

import argparse
import base64
import difflib
import hashlib
import json
import os
import quopri
import re
import subprocess
import sys
import time

# --------------------------------------------------------------------------
# git objects

def git_hash(kind, data):
    """The binary SHA-1 of a git object of KIND (bytes) with body DATA."""
    h = hashlib.sha1(b'%s %d\0' % (kind, len(data)))
    h.update(data)
    return h.digest()


def tree_bytes(entries):
    """Body of a tree object.  ENTRIES maps a name (bytes) to (is_tree, sha20).
    git sorts entries by name, a tree's name compared as if it ended in '/'."""
    items = sorted(entries.items(),
                   key=lambda kv: kv[0] + (b'/' if kv[1][0] else b''))
    return b''.join((b'40000 ' if t else b'100644 ') + name + b'\0' + sha
                    for name, (t, sha) in items)


def tree_from_files(files, memo=None):
    """Tree id (sha20) for FILES, a dict of 'dir/name' -> blob sha20."""
    def build(items):
        entries = {}
        groups = {}
        for parts, sha in items:
            if len(parts) == 1:
                entries[parts[0]] = (False, sha)
            else:
                groups.setdefault(parts[0], []).append((parts[1:], sha))
        for name, sub in groups.items():
            entries[name] = (True, build(sub))
        data = tree_bytes(entries)
        if memo is not None:
            got = memo.get(data)
            if got is None:
                got = memo[data] = git_hash(b'tree', data)
            return got
        return git_hash(b'tree', data)
    return build([(p.encode().split(b'/'), s) for p, s in files.items()])


def tree_entries(files, memo=None):
    """The top-level entries {name (bytes): (is_tree, sha20)} of the tree of
    FILES ('dir/name' -> blob sha20), its subtrees hashed."""
    groups = {}
    entries = {}
    for p, sha in files.items():
        head, _, rest = p.partition('/')
        if rest:
            groups.setdefault(head.encode(), {})[rest] = sha
        else:
            entries[head.encode()] = (False, sha)
    for name, sub in groups.items():
        entries[name] = (True, tree_from_files(sub, memo))
    return entries


def commit_body(tree_hex, parents_hex, author, committer, msg):
    head = 'tree %s\n' % tree_hex
    for p in parents_hex:
        head += 'parent %s\n' % p
    head += 'author %s\ncommitter %s\n\n' % (author, committer)
    return head.encode() + msg


def tag_body(obj_hex, name, tagger, msg):
    return ('object %s\ntype commit\ntag %s\ntagger %s\n\n'
            % (obj_hex, name, tagger)).encode() + msg


def die(msg):
    sys.stderr.write('gen-kernel: %s\n' % msg)
    sys.exit(2)


def git(repo, *args, **kw):
    return subprocess.run(['git', '-C', repo] + list(args), check=True,
                          stdout=subprocess.PIPE, **kw).stdout


def new_repo(path):
    if os.path.exists(path) and os.listdir(path):
        die("'%s' exists and is not empty" % path)
    os.makedirs(path, exist_ok=True)
    subprocess.run(['git', 'init', '-q', '--initial-branch=master', path],
                   check=True)
    # The generated repos are fixtures: never let a command repack them
    # behind a benchmark's back.
    git(path, 'config', 'gc.auto', '0')


def start_fast_import(repo, extra=()):
    return subprocess.Popen(['git', '-C', repo, 'fast-import', '--quiet',
                             '--done'] + list(extra),
                            stdin=subprocess.PIPE, bufsize=1 << 20)


def finish_fast_import(proc):
    proc.stdin.write(b'done\n')
    proc.stdin.close()
    if proc.wait() != 0:
        die('git fast-import failed')


def fi_data(b):
    # No optional LF after the data: every payload here ends in a newline,
    # and a stray blank line after inline data is a fast-import error.
    return b'data %d\n' % len(b) + b


# --------------------------------------------------------------------------
# stand-in file contents

def source_blob(path, rev):
    ident = re.sub(r'[^a-z0-9]+', '_', path.rsplit('/', 1)[-1].rsplit('.', 1)[0])
    return ('// SPDX-License-Identifier: GPL-2.0\n'
            '/*\n'
            ' * %s\n'
            ' *\n'
            ' * A stand-in source file of the fixscan sample kernel tree.\n'
            ' * Only the history matters; every commit that touches this\n'
            ' * file changes the revision number below.\n'
            ' */\n'
            '#include <linux/kernel.h>\n'
            '#include <linux/module.h>\n'
            '\n'
            '#define FIXSCAN_FILE_REVISION %d\n'
            '\n'
            'int fixscan_%s_revision(void)\n'
            '{\n'
            '\treturn FIXSCAN_FILE_REVISION;\n'
            '}\n'
            'EXPORT_SYMBOL_GPL(fixscan_%s_revision);\n'
            % (path, rev, ident, ident)).encode()


def makefile_blob(ver):
    """VER is (major, minor, sublevel, extra) e.g. (4, 4, 0, '-rc2')."""
    return ('# SPDX-License-Identifier: GPL-2.0\n'
            'VERSION = %d\n'
            'PATCHLEVEL = %d\n'
            'SUBLEVEL = %d\n'
            'EXTRAVERSION = %s\n'
            'NAME = Fixscan Sample Tree\n'
            '\n'
            '# The rest of the build system is left out of the sample tree.\n'
            'all:\n'
            '\t@echo "nothing to build"\n' % ver).encode()


README_BLOB = (b'Fixscan sample kernel tree\n'
               b'==========================\n\n'
               b'A synthetic history made by scripts/gen-kernel.py from the\n'
               b'fixscan repository.  The file contents are placeholders; the\n'
               b'commit messages, branches and tags are what the tests use.\n')


def parse_version(tag):
    """'v4.4-rc2' -> sortable key; None for names that are not versions."""
    m = re.match(r'^v(\d+)\.(\d+)(?:\.(\d+))?(?:-rc(\d+))?$', tag)
    if not m:
        return None
    maj, mi, sub, rc = m.groups()
    return (int(maj), int(mi), int(sub or 0), 0 if rc else 1, int(rc or 0))


# --------------------------------------------------------------------------
# people (all invented)

class Person:
    def __init__(self, name, email, tz):
        self.name, self.email, self.tz = name, email, tz

    @property
    def addr(self):
        return '%s <%s>' % (self.name, self.email)

    def ident(self, ts):
        return '%s <%s> %d %s' % (self.name, self.email, ts, self.tz)


PEOPLE = {
    'lena': Person('Lena Torvik', 'lena@mainline.example.org', '-0700'),
    'greta': Person('Greta Kroll', 'greta@stable.example.org', '+0200'),
    'sami': Person('Sami Levant', 'sami@autosel.example.org', '-0400'),
    'tomasz': Person('Tomasz Rieger', 'tomasz@tip.example.org', '+0100'),
    'nadia': Person('Nadia Perez', 'nadia@netdev.example.org', '-0800'),
    'oskar': Person('Oskar Brandt', 'oskar@subsys.example.org', '+0100'),
    'alice': Person('Alice Kovacs', 'alice.kovacs@example.com', '+0100'),
    'bart': Person('Bartosz Lindqvist', 'bartosz@example.org', '+0100'),
    'wei': Person('Chen Weilin', 'weilin.chen@example.net', '+0800'),
    'dmitri': Person('Dmitri Orlov', 'dorlov@example.com', '+0300'),
    'eva': Person('Eva Marquardt', 'eva.marquardt@example.org', '+0200'),
    'fumiko': Person('Fumiko Tanabe', 'tanabe@example.jp', '+0900'),
    'gus': Person('Gustavo Ribeiro', 'gribeiro@example.com', '-0300'),
    'hanna': Person('Hanna Virtanen', 'hanna.virtanen@example.fi', '+0300'),
    'jose': Person('Jos\u00e9 N\u00fa\u00f1ez', 'jnunez@example.es', '+0100'),
    'kai': Person('Kai S\u00f8rensen', 'kai.sorensen@example.dk', '+0100'),
    'ravi': Person('Ravi Menon', 'ravi.menon@example.com', '+0530'),
    'priya': Person('Priya Natarajan', 'priya@ci.example.org', '-0700'),
}

# --------------------------------------------------------------------------
# the sample: files

FILES = {
    'tlb': 'arch/x86/mm/tlb.c',
    'x86proc': 'arch/x86/kernel/process.c',
    'arm64': 'arch/arm64/mm/fault.c',
    'ppc': 'arch/powerpc/kernel/process.c',
    'tcp': 'net/ipv4/tcp.c',
    'xt': 'net/netfilter/x_tables.c',
    'bio': 'block/bio.c',
    'pci': 'drivers/pci/probe.c',
    'vb2': 'drivers/media/v4l2-core/videobuf2-v4l2.c',
    'reg': 'drivers/regulator/core.c',
    'hub': 'drivers/usb/core/hub.c',
    'iio': 'drivers/iio/adc/ti-ads1015.c',
    'i915': 'drivers/gpu/drm/i915/intel_display.c',
    'ext4': 'fs/ext4/inode.c',
    'mm': 'mm/page_alloc.c',
    'sched': 'kernel/sched/fair.c',
    'pcm': 'sound/core/pcm_native.c',
    # Files mainline adds after every stable branch forked (absent from
    # every tree before the commit that adds them): what a backport may
    # need that its branch lacks (symbol-missing), and what a fix may touch
    # alone (fix-not-applicable).
    'settle': 'drivers/usb/core/port-settle.h',
    'typec': 'drivers/usb/typec/tcpm.c',
}
# Files that are not in the first tree.
LATE_FILES = ('settle', 'typec')

# Subsystem maintainers who commit (and sign off) patches to each file.
COMMITTER = {
    'tlb': 'tomasz', 'x86proc': 'tomasz', 'tcp': 'nadia', 'xt': 'nadia',
}

# --------------------------------------------------------------------------
# the sample: history spec
#
# A list of events in emission (and date) order.  Message text may name
# other commits, always earlier ones, with placeholders:
#   {id:NAME}  40 hex    {hN:NAME}  first N hex    {s:NAME}  subject
# Signed-off-by lines of the author and the committer are appended.

EV = []


def C(name, line, file, author, subject, body='', **kw):
    EV.append(dict(kind='commit', name=name, line=line, file=file,
                   author=author, subject=subject, body=body, **kw))


def REL(line, ver, annotated):
    """A "Linux X" commit bumping the Makefile, and its tag."""
    maj, mi, sub, extra = ver
    tag = 'v%d.%d' % (maj, mi) + ('.%d' % sub if sub else '') + extra
    name = 'rel-' + tag
    who = 'lena' if line in ('master',) else 'greta'
    EV.append(dict(kind='commit', name=name, line=line, file='Makefile',
                   author=who, subject='Linux ' + tag[1:], body='',
                   makefile=ver, release_commit=True))
    EV.append(dict(kind='tag', tag=tag, target=name, annotated=annotated))


def S(name, line, up, form, extra='', subject=None, body=None, author=None,
      **kw):
    """A stable commit backporting UP (a name or a list of names)."""
    EV.append(dict(kind='stable', name=name, line=line, up=up, form=form,
                   extra=extra, subject=subject, body=body, author=author,
                   **kw))


OOPS_TLB = '''\
  BUG: unable to handle kernel paging request at ffffc90000b8a000
  IP: [<ffffffff8106b3f1>] flush_tlb_func+0x61/0x120
  PGD 7fc4e067 PUD 7fc4f067 PMD 7a3c9067 PTE 0
  Oops: 0002 [#1] SMP
  CPU: 3 PID: 1187 Comm: kworker/3:1 Not tainted 4.4.0-rc1+ #12
  RIP: 0010:[<ffffffff8106b3f1>]  [<ffffffff8106b3f1>] flush_tlb_func+0x61/0x120
  RSP: 0018:ffff88007c3b7d48  EFLAGS: 00010046
  RAX: 0000000000000000 RBX: ffff88007d2c6f00 RCX: 00000000000000c8
  RDX: ffffc90000b8a000 RSI: 0000000000000001 RDI: ffff88007d2c6f00
  Code: 48 8b 05 39 c2 9b 00 48 85 c0 74 1c 48 8b 50 08 <48> 89 02 65 ff 0d 0b 9f fa 7e'''

OOPS_TCP = '''\
  BUG: unable to handle kernel NULL pointer dereference at 0000000000000018
  IP: [<ffffffff8171a2c4>] tcp_fastopen_queue_check+0x24/0x90
  Oops: 0000 [#1] SMP
  CPU: 1 PID: 2045 Comm: tfo-listen Not tainted 4.5.0-rc7+ #3
  RIP: 0010:[<ffffffff8171a2c4>]  [<ffffffff8171a2c4>] tcp_fastopen_queue_check+0x24/0x90
  RSP: 0018:ffff88007b1f3d28  EFLAGS: 00010246
  RAX: 0000000000000000 RBX: ffff88007a8c1800 RCX: 0000000000000000
  RDX: 0000000000000001 RSI: ffff88007b1f3d60 RDI: ffff88007a8c1800
  R13: {h16:b_tcp_old} R14: ffff88007a8c1800 R15: 0000000000000000
  Call Trace:
   [<ffffffff816f0c11>] tcp_conn_request+0x3a1/0xa50
   [<ffffffff8170d7c6>] tcp_v4_conn_request+0x46/0x70
  Code: 00 00 55 48 89 e5 53 48 89 fb 48 8b 87 60 06 00 00 <8b> 40 18 85 c0 7e 23 48 8b'''


def sample_spec():
    if EV:
        return EV
    M = 'master'
    # ---- up to v4.3 -------------------------------------------------
    C('root', M, None, 'lena', 'Import the fixscan sample tree',
      'Start of the synthetic history that fixscan\'s tests and demos run\n'
      'against.  The files are placeholders; the commit messages, branches\n'
      'and tags are what matters.', committer='lena', makefile=(4, 3, 0, '-rc7'))
    C('b_tcp_old', M, 'tcp', 'dmitri',
      'tcp: do not shrink the receive window after a zero window probe',
      'A zero window probe from the peer made tcp_select_window() return a\n'
      'window smaller than the one already advertised, which some stacks\n'
      'treat as a protocol violation and answer with a reset.\n\n'
      'Keep the advertised right edge where it is until the application\n'
      'has read enough data to open the window again.')
    C('b_sched_old', M, 'sched', 'hanna',
      'sched/fair: skip idle groups when updating the blocked load',
      'Walking every idle task group on each tick costs measurable time on\n'
      'machines with thousands of cgroups.  A group whose load already\n'
      'decayed to zero cannot contribute anything, so leave it alone.')
    REL(M, (4, 3, 0, ''), True)
    # ---- v4.4 merge window --------------------------------------------
    C('b_anc', M, 'hub', 'bart',
      'usb: hub: clear the reset-resume flag before re-enumerating a port',
      'The flag survived a failed re-enumeration, so the next resume tried\n'
      'a reset-resume on a device that had already been disconnected and\n'
      'left the port disabled until the hub was unplugged.')
    C('b_mm_A', M, 'mm', 'eva',
      'mm/page_alloc: recheck the watermark after draining per-cpu lists',
      'Draining the per-cpu lists can free enough pages for the allocation\n'
      'to succeed, but the allocator went straight to direct reclaim\n'
      'without looking at the watermark again.')
    C('b_mm_B', M, 'ext4', 'fumiko',
      'ext4: release the journal handle when inode allocation fails',
      'The error path of __ext4_new_inode() returned without stopping the\n'
      'handle it had started, which later trips the credit check in\n'
      'jbd2_journal_stop() of an unrelated operation.')
    C('b_base_target', M, 'bio', 'gus',
      'block: handle zero-length discard bios in bio_split()',
      'bio_split() assumed that every bio carries data and divided by the\n'
      'segment size, which is zero for an empty discard.')
    C('b_pre1', M, 'pci', 'wei',
      'PCI: read the ROM BAR size only once during probe',
      'Sizing the expansion ROM BAR twice is harmless on most devices but\n'
      'some older controllers lock up when the BAR is written while the\n'
      'ROM is being shadowed.')
    REL(M, (4, 4, 0, '-rc1'), True)
    C('b_rc2', M, 'tlb', 'alice',
      'x86/mm: flush the local TLB before dropping the mm reference',
      'A kworker flushing the TLB on behalf of a task that is exiting can\n'
      'run after the last reference to the mm is gone:\n\n'
      + OOPS_TLB + '\n\n'
      'Do the local flush while the reference is still held.\n\n'
      'Reported-by: Ravi Menon <ravi.menon@example.com>\n'
      'Tested-by: Ravi Menon <ravi.menon@example.com>')
    REL(M, (4, 4, 0, '-rc2'), False)
    C('b_rc3', M, 'pcm', 'kai',
      'ALSA: pcm: fix the period wakeup for non-interleaved buffers',
      'The wakeup threshold was computed in frames of the first channel\n'
      'only, so non-interleaved streams woke the reader too late.')
    REL(M, (4, 4, 0, '-rc3'), False)
    C('b_final', M, 'reg', 'hanna',
      'regulator: core: propagate the error of the supply lookup',
      'A failed supply lookup was reported as -EPROBE_DEFER forever, which\n'
      'hides a genuine misconfiguration in the device tree.')
    REL(M, (4, 4, 0, ''), True)
    # ---- v4.5 merge window --------------------------------------------
    # A topic branch forked at v4.4 and merged at the end of the window.
    C('side1', 'side', 'x86proc', 'alice',
      'x86/process: save the FPU state before switching the TLS entries',
      'Switching the TLS descriptors first leaves a window in which an NMI\n'
      'sees the new segment bases together with the old FPU registers.',
      fork='rel-v4.4')
    C('u_cp1', 'side', 'tlb', 'alice',
      'x86/mm: avoid a full flush when only one page changes',
      'flush_tlb_mm_range() falls back to a full flush whenever the range\n'
      'is not page aligned, even for a single page.  Round the range to\n'
      'page boundaries first so that the common case uses INVLPG.')
    C('m_d1', M, 'ppc', 'wei',
      'powerpc/tm: bail out early when the transaction state was already reclaimed',
      'Delivering a signal to a thread that has a suspended transaction\n'
      'could reclaim the transactional state twice and corrupt the\n'
      'checkpointed registers.  Check the MSR and return early.\n\n'
      'Cc: stable@vger.kernel.org')
    C('u_dup', M, 'xt', 'dmitri',
      'netfilter: x_tables: validate the target size before copying it',
      'A rule blob with a target whose size field points past the end of\n'
      'the entry made the compat translation read beyond the buffer.\n\n'
      'Cc: <stable@vger.kernel.org> # 4.4.x')
    C('m_y', M, 'reg', 'hanna',
      'regulator: core: drop the supply lock before calling the notifier chain',
      'Notifier callbacks may take the supply lock themselves; calling them\n'
      'with the lock held deadlocks with lockdep splats on some boards.\n\n'
      'Cc: stable@vger.kernel.org # v4.4+')
    C('m_x', M, 'reg', 'hanna',
      'regulator: core: take the supply locks in a fixed order',
      'Two consumers enabling regulators that supply each other in opposite\n'
      'order could deadlock.  Always lock the parent supply first.\n\n'
      'Cc: stable@vger.kernel.org')
    C('u_fp', M, 'pci', 'gus',
      'PCI: keep BAR sizing disabled for devices that ignore it',
      'Some devices report bogus sizes when their BARs are written with all\n'
      'ones while decoding is enabled.  Honour the quirk flag for them in\n'
      'the rescan path as well.')
    C('f_fp', M, 'pci', 'gus',
      'PCI: restore the command register after probing the BARs',
      'The quirk path returned before restoring the command register, which\n'
      'left memory decoding disabled on the quirked devices.\n\n'
      'Fixes: {h16:u_fp}\n'
      'Cc: stable@vger.kernel.org')
    C('m_prq', M, 'bio', 'eva',
      'block: add bio_first_page() and bio_last_page() helpers',
      'Several drivers open-code the lookup of the first and the last page\n'
      'of a bio, two of them incorrectly for cloned bios.  Provide helpers\n'
      'that get it right.')
    C('m_dep', M, 'sched', 'hanna',
      'sched/fair: factor out the load-balance interval computation',
      'No functional change; the next patch needs the interval outside of\n'
      'rebalance_domains().')
    C('m_needs', M, 'sched', 'hanna',
      'sched/fair: do not balance across an isolated domain',
      'An isolated CPU still pulled tasks from its siblings once the\n'
      'balance interval had expired, defeating the isolation.\n\n'
      'Cc: stable@vger.kernel.org')
    C('m_cpa', M, 'vb2', 'bart',
      'media: vb2: check the plane count in the dequeue path',
      'VIDIOC_DQBUF trusted the plane count from userspace and copied that\n'
      'many plane descriptors back, overrunning the array for multiplanar\n'
      'formats with fewer planes.')
    C('m_cpb', M, 'vb2', 'bart',
      'media: vb2: reject a zero plane count from userspace',
      'A zero plane count slipped through the check added earlier and made\n'
      'the driver dereference plane 0 of an empty array.')
    C('m_f1', M, 'tcp', 'dmitri',
      'tcp: reset the retransmit timer when a socket leaves repair mode',
      'A socket restored with TCP_REPAIR kept the timer state of the dumped\n'
      'socket and retransmitted immediately with a bogus backoff.')
    C('m_f2', M, 'arm64', 'kai',
      'arm64: mm: keep the hardware dirty bit when relaxing pte permissions',
      'ptep_set_access_flags() rebuilt the pte from the old value and lost\n'
      'a dirty bit the hardware had set in the meantime.\n\n'
      'Cc: <stable@vger.kernel.org> # 3.10+')
    C('m_f3', M, 'ext4', 'fumiko',
      'ext4: fix the error path of the extent status shrinker',
      'The shrinker dropped the lock on the error path twice.')
    C('d_dm', M, 'i915', 'alice',
      'drm/i915: move the watermark sanitizing out of the modeset path',
      'Sanitizing the watermarks in the middle of a modeset races with the\n'
      'vblank worker.  Do it once during hardware state readout instead.')
    C('t_ta', M, 'iio', 'fumiko',
      'iio: adc: convert the temperature channel to the processed format',
      'Report the temperature as a processed value so that userspace does\n'
      'not need to know the scale of each converter.')
    C('u_clean2', M, 'bio', 'gus',
      'block: account discard bios in the partition statistics',
      'Discards were counted on the whole disk only.  Both fixes below\n'
      'left the partition counters alone.\n\n'
      'Fixes: {h12:b_base_target} ("{s:b_base_target}")\n'
      'Fixes: {h12:b_final} ("{s:b_final}")')
    C('a3', M, 'mm', 'eva',
      'mm/page_alloc: let movable allocations reuse high-order atomic reserves',
      'The reserve blocks sat unused for hours on machines that never make\n'
      'high-order atomic allocations.  Allow movable allocations to borrow\n'
      'them when the zone is otherwise below the low watermark.')
    C('merge1', M, None, 'lena',
      "Merge branch 'x86-mm-for-linus' of git://git.kernel.org/pub/scm/linux/kernel/git/tip/tip",
      'Pull x86 mm updates from Tomasz Rieger:\n\n'
      ' - save the FPU state before the TLS switch\n'
      ' - avoid full TLB flushes for single-page ranges\n\n'
      "* 'x86-mm-for-linus' of git://git.kernel.org/pub/scm/linux/kernel/git/tip/tip:\n"
      '  {s:u_cp1}\n'
      '  {s:side1}', merge='side', committer='lena', no_signoff=True)
    REL(M, (4, 5, 0, '-rc1'), True)
    # ---- 4.4.y: v4.4.1 and v4.4.2 -------------------------------------
    F = 'linux-4.4.y'
    S('s_d1a', F, 'm_d1', 'commit-dot', fork='rel-v4.4')
    S('s_f1', F, 'm_f1', 'bracket')
    REL(F, (4, 4, 1, ''), True)
    S('s_dup', F, 'u_dup', 'commit-nodot')
    S('s_x', F, 'm_x', 'plain')
    S('s_cp', F, ['m_cpa', 'm_cpb'], 'cherry2',
      extra='[ greta: squashed the follow-up, both are needed on 4.4 ]')
    REL(F, (4, 4, 2, ''), False)
    # ---- v4.5-rc2, v4.5 ----------------------------------------------
    C('b3', M, 'mm', 'eva',
      'mm/page_alloc: recompute the reserve size after a failed steal',
      'Borrowing a reserve block and failing to steal it afterwards left\n'
      'the reserve accounting one block short.  The earlier watermark\n'
      'change made the failure path much more likely.\n\n'
      'Fixes: {h12:a3} ("{s:a3}")\n'
      'Fixes: {h12:b_mm_A} ("{s:b_mm_A}")')
    C('u_ta', M, 'iio', 'fumiko',
      'iio: adc: report the die temperature in m\u00b0C',
      'The processed value was in degrees, while the ABI documents milli\n'
      'degrees Celsius for in_temp_input.\n\n'
      'Fixes: {h8:t_ta} ("{s:t_ta}")')
    REL(M, (4, 5, 0, '-rc2'), False)
    C('f_filler1', M, 'hub', 'bart',
      'usb: hub: add a missing newline to a debug message')
    REL(M, (4, 5, 0, ''), True)
    # ---- 4.4.y: v4.4.3, v4.4.4 ----------------------------------------
    S('s_fp', F, 'f_fp', 'cherry')
    S('s_d1b', F, 'm_d1', 'Commit-dot')
    REL(F, (4, 4, 3, ''), True)
    S('s_y', F, 'm_y', 'commit-dot')
    S('s_prq', F, 'm_prq', 'commit-dot')
    REL(F, (4, 4, 4, ''), False)
    # ---- v4.6 merge window --------------------------------------------
    C('u_clean1', M, 'tcp', 'dmitri',
      'tcp: fix a NULL dereference when fastopen is enabled after listen()',
      'Enabling TCP_FASTOPEN on a socket that is already listening leaves\n'
      'the fastopen queue unallocated, and the next SYN with a cookie\n'
      'crashes:\n\n' + OOPS_TCP + '\n\n'
      'Allocate the queue when the option is set on a listener.\n\n'
      'Reported-by: Priya Natarajan <priya@ci.example.org>\n'
      'Cc: stable@vger.kernel.org # v4.4+')
    C('u_fm', M, 'xt', 'dmitri',
      'netfilter: x_tables: check the counters offset in compat mode',
      'The compat path copied the counters from an offset that was never\n'
      'checked against the size of the blob.\n\n'
      'Cc: stable@vger.kernel.org\n'
      'Link: https://lore.kernel.org/r/20160402101520.4711-1-dorlov@example.com')
    C('u_fq', M, 'arm64', 'kai',
      'arm64: mm: flush the instruction cache after mapping a new kernel page',
      'Module text mapped at a recycled address could execute stale\n'
      'instructions from the I-cache.\n\n'
      'Cc: stable@vger.kernel.org')
    C('u_rv', M, 'ppc', 'wei',
      'powerpc/tm: clear the transaction state on signal delivery',
      'Leaving the transaction state set while the signal handler runs\n'
      'makes the handler abort on its first store.')
    C('u_rr1', M, 'pcm', 'jose',
      'ALSA: pcm: serialize the drain against the stop callback',
      'A drain racing with a stop from another thread could leave the\n'
      'stream in the DRAINING state forever.')
    C('u_rr2', M, 'hub', 'bart',
      'usb: hub: power-cycle ports that fail the first descriptor read',
      'Some devices need a power cycle after a failed descriptor read;\n'
      'a plain port reset leaves them stuck.')
    C('u_dm', M, 'i915', 'alice',
      'drm/i915: keep the pipe watermarks across a suspend cycle',
      'The watermarks computed before suspend were thrown away on resume\n'
      'and recomputed from the sanitized state, which underruns on eDP\n'
      'panels.\n\n'
      'Cc: stable@vger.kernel.org # 4.4.x: {h12:d_dm}: prerequisite\n'
      'Cc: stable@vger.kernel.org # 4.4.x')
    C('u_mm', M, 'ext4', 'fumiko',
      'ext4: do not leave a stale journal handle behind when inode allocation '
      'fails in the middle of a directory split',
      'The earlier fix of the allocation error path missed the case where\n'
      'the failure happens after the directory block was split.\n\n'
      'Fixes: {h12:b_mm_A} ("{s:b_mm_B}")')
    C('u_st', M, 'reg', 'hanna',
      'regulator: core: unlock the supply before retrying a failed enable',
      'The fixed lock order introduced a path that retries an enable with\n'
      'the parent supply still locked.\n\n'
      'Fixes: {h12:s_x} ("{s:m_x}")')
    C('u_cp2', M, 'tlb', 'alice',
      'x86/mm: count single-page flushes in the TLB statistics',
      'The vmstat counters did not see the single-page flushes at all.')
    C('u_ch', M, 'sched', 'hanna',
      'sched/fair: update the blocked load of throttled groups',
      'A throttled group kept its blocked load frozen until it was\n'
      'unthrottled, so the parent saw a stale load for the whole period.')
    C('c3', M, 'mm', 'eva',
      'mm/page_alloc: do not steal a reserve block while the zone is compacted',
      'Recomputing the reserve during compaction races with the migration\n'
      'scanner.\n\n'
      'Fixes: {h10:b3} ("{s:b3}")')
    C('u_prq_series', M, 'tcp', 'dmitri',
      'tcp: use the lazily allocated fastopen queue in the child socket',
      'The child socket still looked at the listener\'s queue pointer\n'
      'directly.\n\n'
      'Cc: <stable@vger.kernel.org> # 4.4.x: {h12:u_clean1}: prerequisite\n'
      'Cc: <stable@vger.kernel.org> # 4.4.x')
    C('u_prq_base', M, 'bio', 'eva',
      'block: use bio_last_page() in the merge checks',
      'The open-coded lookup got cloned bios wrong.\n\n'
      'Cc: stable@vger.kernel.org # 4.4.x: {h12:m_prq}: {s:m_prq}\n'
      'Cc: stable@vger.kernel.org # 4.4.x')
    C('m_both', M, 'pcm', 'kai',
      'ALSA: pcm: fix the frame count of the silence fill',
      'The silence fill wrote one period too many when the boundary\n'
      'wrapped.\n\n'
      'Cc: <stable@vger.kernel.org>')
    C('m_f45a', M, 'tcp', 'dmitri',
      'tcp: clear the timestamp option when the peer stops sending it',
      'RFC 7323 allows a peer to stop sending timestamps only in odd\n'
      'situations, but some middleboxes strip them mid-connection.')
    C('m_f45c', M, 'hub', 'bart',
      'usb: hub: ignore the port change bits during a warm reset',
      'The change bits set by the warm reset itself were reported as a\n'
      'disconnect.')
    C('u46_clean', M, 'hub', 'bart',
      'usb: hub: do not clear the port power on a warm reset',
      'Clearing the power bit during a warm reset disconnects bus-powered\n'
      'hubs downstream.')
    C('u46_dep', M, 'ext4', 'fumiko',
      'ext4: split ext4_orphan_cleanup() into two helpers',
      'No functional change; prepares for a restartable cleanup.')
    C('u46_needs', M, 'ext4', 'fumiko',
      'ext4: make the orphan cleanup restartable',
      'A crash during orphan cleanup left inodes on the list that the next\n'
      'mount tried to truncate again.\n\n'
      'Cc: stable@vger.kernel.org')
    C('u46_depmiss', M, 'ext4', 'fumiko',
      'ext4: pass the superblock to the orphan list helpers',
      'No functional change.')
    C('u46_x', M, 'ext4', 'fumiko',
      'ext4: drop orphan inodes that belong to a different filesystem',
      'An orphan list corrupted by an earlier bug can name inodes from a\n'
      'snapshot of another filesystem.\n\n'
      'Cc: stable@vger.kernel.org')
    REL(M, (4, 6, 0, '-rc1'), True)
    # ---- 4.4.y: v4.4.5; 4.5.y: v4.5.1; 4.4.y: v4.4.6; 4.5.y: v4.5.2 ----
    EV.append(dict(kind='stable-revert', name='s_d1_revert', line=F,
                   target='s_d1b', author='greta', colon=True,
                   reason='It was applied twice; the original backport is already in 4.4.'))
    S('s_dep', F, 'm_dep', 'commit-dot',
      extra='Stable-dep-of: {h12:m_needs} ("{s:m_needs}")',
      author_signoff='sami')
    S('s_needs', F, 'm_needs', 'commit-dot')
    REL(F, (4, 4, 5, ''), True)
    G = 'linux-4.5.y'
    S('s45_a', G, 'm_f45a', 'commit-dot', fork='rel-v4.5')
    REL(G, (4, 5, 1, ''), True)
    S('s_both', F, 'm_both', 'commit-dot')
    S('s_f2', F, 'm_f2', 'plain-dot')
    S('s_f3', F, 'm_f3', 'commit-nodot')
    REL(F, (4, 4, 6, ''), True)
    S('s45_both', G, 'm_both', 'commit-dot')
    REL(G, (4, 5, 2, ''), False)
    # ---- v4.6-rc2, v4.6 ----------------------------------------------
    C('f_fq', M, 'arm64', 'kai',
      'arm64: mm: only flush the instruction cache for executable mappings',
      'Flushing the I-cache for every new kernel mapping is expensive on\n'
      'large machines and only needed for text.\n\n'
      'Fixes: commit {h12:u_fq} ("{s:u_fq}")')
    C('r_rv', M, 'ppc', 'wei',
      'Revert "{s:u_rv}"',
      'This reverts commit {id:u_rv}.\n\n'
      'It breaks the signal return path of 32-bit tasks, and the problem\n'
      'it tried to solve is handled in the signal setup code now.\n\n'
      'Reported-by: Ravi Menon <ravi.menon@example.com>', reverts=['u_rv'])
    C('f_ch1', M, 'sched', 'hanna',
      'sched/fair: do not update the blocked load of a group being destroyed',
      'The update added for throttled groups also runs for a group whose\n'
      'parent pointer is already gone.\n\n'
      'Fixes: {h12:u_ch} ("sched/fair: update the blocked load of\n'
      'throttled groups")')
    C('f_cp2', M, 'tlb', 'alice',
      'x86/mm: fix the flush counter for the single-page case',
      'The counter was bumped twice for each single-page flush.\n\n'
      'Fixes: {h12:u_cp2} ("{s:u_cp2}")')
    REL(M, (4, 6, 0, '-rc2'), False)
    S('s45_c', G, 'm_f45c', 'bracket')
    REL(G, (4, 5, 3, ''), True)
    C('f_filler2', M, 'pci', 'wei',
      'PCI: fix a typo in a comment')
    REL(M, (4, 6, 0, ''), True)
    # ---- v4.7 ----------------------------------------------------------
    C('f_fm', M, 'xt', 'dmitri',
      'netfilter: x_tables: fix the compat counters offset check',
      'The check compared the offset with the size of the native blob, not\n'
      'the compat one, and still let a crafted blob through.\n\n'
      'Fixes: {h12:u_fm} ("{s:u_fm}")\n'
      'Cc: stable@vger.kernel.org')
    C('f_ch2', M, 'sched', 'hanna',
      'sched/fair: hold the runqueue lock when skipping a destroyed group',
      'The check for a destroyed group reads the parent pointer without\n'
      'the lock that protects it.\n\n'
      'Fixes: {id:f_ch1} ("{s:f_ch1}")')
    C('d3', M, 'mm', 'eva',
      'mm/page_alloc: account the reserve block when the steal is aborted',
      'Fixes: {h12:c3} ("{s:c3}")')
    REL(M, (4, 7, 0, '-rc1'), True)
    C('f_filler3', M, 'i915', 'alice',
      'drm/i915: remove an unused variable',
      'Cc: <stable@vger.kernel.org> # 4.4.x')
    REL(M, (4, 7, 0, '-rc2'), False)
    C('f_filler4', M, 'sched', 'hanna',
      'sched/fair: document the blocked load update rules')
    REL(M, (4, 7, 0, ''), True)
    # ---- after v4.7, untagged -----------------------------------------
    C('post1', M, 'tcp', 'dmitri',
      'tcp: document the locking of the fastopen queue',
      'Link: https://lore.kernel.org/r/20160801093011.2231-1-dorlov@example.com')
    C('post2', M, 'pcm', 'kai',
      'ALSA: pcm: drop a redundant state check in the drain path',
      'Fixes: {h12:b_rc3} ("{s:b_rc3}")')
    # ---- after v4.7, untagged: what real review threads bring ----------
    # Reverted, then applied again by a revert of the revert.
    C('u_ror', M, 'tcp', 'dmitri',
      'tcp: send the final ack of a simultaneous close right away',
      'Delaying it made the peer retransmit its FIN on lossy links.')
    C('r_ror1', M, 'tcp', 'dmitri',
      'Revert "{s:u_ror}"',
      'This reverts commit {id:u_ror}.\n\n'
      'It exposed a bug in the timewait code that needs fixing first.',
      reverts=['u_ror'])
    C('r_ror2', M, 'tcp', 'dmitri',
      'Revert "{s:r_ror1}"',
      'This reverts commit {id:r_ror1}.\n\n'
      'The timewait code is fixed now, so the original change can go back in.',
      reverts=['r_ror1'])
    # Backported to linux-4.5.y, where a stable-only revert dropped it again.
    C('u_ris', M, 'hub', 'bart',
      'usb: hub: wait for the port power to settle after a resume',
      'Some hubs report a connect change before the port power is stable.')
    S('s_ris', G, 'u_ris', 'commit-dot')
    EV.append(dict(kind='stable-revert', name='s_ris_revert', line=G,
                   target='s_ris', author='greta', colon=False,
                   reason='It makes resume hang on boards whose hub lacks per-port power\n'
                          'switching, and the code it relies on is not in 4.5.'))
    # The reviewer's clone was fetched well after the review threads.
    C('post3', M, 'sched', 'hanna',
      'sched/fair: document the throttled group rules', delay=30 * 86400)
    # Part 2 of the posting u_fm came from (its Link: id with -2-), merged
    # late, fetched after the threads too: the review threads that take
    # u_fm leave it out.
    C('u_fm2', M, 'xt', 'dmitri',
      'netfilter: x_tables: check the target size in compat mode',
      'The compat path trusted the target size the user gave.\n\n'
      'Cc: stable@vger.kernel.org\n'
      'Link: https://lore.kernel.org/r/20160402101520.4711-2-dorlov@example.com',
      delay=30 * 86400)
    # ---- after the threads, fetched late too: reading the branch's tree ----
    # A helper in a header of its own, then a hub change that calls it:
    # its backport to 4.5 (review-4.5 06) cannot build there without the
    # helper's commit (symbol-missing naming u_settle_base).
    C('u_settle_base', M, 'settle', 'bart',
      'usb: hub: add hub_port_settle_ms()',
      'Hubs need different times for their ports to settle after power-on;\n'
      'give the delay one helper.',
      code='\nstatic inline unsigned int hub_port_settle_ms(const struct usb_hub *hub)\n'
           '{\n\treturn 100;\n}\n', delay=30 * 86400)
    C('u_settle_use', M, 'hub', 'bart',
      'usb: hub: let the port settle before the first reset',
      'A device plugged in at power-on was reset before its port settled,\n'
      'and some did not enumerate.\n\nCc: stable@vger.kernel.org',
      code='\nstatic void fixscan_hub_port_settle(struct usb_hub *hub)\n{\n'
           '\tmsleep(hub_port_settle_ms(hub));\n}\n', needs=['u_settle_base'],
      delay=30 * 86400)
    # A Type-C port manager mainline added after 4.5, and a hub change
    # whose only fix is in that file: nothing to ask 4.5 for (review-4.5
    # 07: fix-not-applicable, not fix-missing).
    C('u_typec_add', M, 'typec', 'bart',
      'usb: typec: add a port manager',
      'Type-C ports need a state machine of their own.', delay=30 * 86400)
    C('u_na', M, 'hub', 'bart',
      'usb: hub: report the port speed to the connector class',
      'The connector class wants to know how fast a port runs.', delay=30 * 86400)
    C('f_na', M, 'typec', 'bart',
      'usb: typec: read the port speed after the hub reported it',
      'The port manager read the speed before the hub had reported it.\n\n'
      'Fixes: {h12:u_na} ("{s:u_na}")', delay=30 * 86400)
    return EV


SAMPLE_T0 = 1446336000     # 2015-11-01 00:00 UTC
SAMPLE_STEP = 129600       # a commit every 36 hours

UPSTREAM_FORMS = {
    'commit-dot': 'commit {id} upstream.',
    'Commit-dot': 'Commit {id} upstream.',
    'commit-nodot': 'commit {id} upstream',
    'bracket': '[ Upstream commit {id} ]',
    'plain': 'Upstream commit {id}',
    'plain-dot': 'Upstream commit {id}.',
}

PH_RE = re.compile(r'\{(id|h\d+|s):([A-Za-z0-9_-]+)\}')

# --------------------------------------------------------------------------
# a small changelog parser, used to cross-check the spec and to compute the
# expected findings (it reads the same text fixscan will read)

HEX = r'[0-9a-f]'


def parse_changelog(text):
    lines = text.split('\n')
    out = dict(upstream=[], fixes=[], reverts=[], prereqs=[], depof=[])
    i = 0
    while i < len(lines):
        ln = lines[i]
        prev = lines[i - 1] if i else ''
        m = re.match(r'^\s*commit (%s{40}) upstream\.?\s*$' % HEX, ln, re.I)
        if m and not prev.rstrip().endswith('which was'):
            out['upstream'].append(m.group(1))
        m = (re.match(r'^\s*\[ ?Upstream commit (%s{12,40}) ?\]\s*$' % HEX, ln)
             or re.match(r'^\s*Upstream commit (%s{12,40})\.?\s*$' % HEX, ln)
             or re.match(r'^\s*\(cherry picked from commit (%s{12,40})\)\s*$'
                         % HEX, ln))
        if m:
            out['upstream'].append(m.group(1))
        m = re.match(r'^Fixes:\s+(?:commit\s+)?(%s{7,40})\b(.*)$' % HEX, ln)
        if m:
            rest = m.group(2).strip()
            subj = None
            if rest.startswith('("'):
                while not rest.endswith('")') and i + 1 < len(lines):
                    i += 1
                    rest += ' ' + lines[i].strip()
                subj = rest[2:-2]
            out['fixes'].append((m.group(1), subj))
        m = re.match(r'^This reverts commit (%s{40})(\.| which was)' % HEX, ln)
        if m:
            out['reverts'].append(m.group(1))
        m = re.match(r'^Cc:\s*<?stable@vger\.kernel\.org>?\s*#\s*[^:]+:\s*'
                     r'(%s{7,40}):' % HEX, ln)
        if m:
            out['prereqs'].append(m.group(1))
        m = re.match(r'^Stable-dep-of:\s+(%s{7,40})\b' % HEX, ln)
        if m:
            out['depof'].append(m.group(1))
        i += 1
    return out


# --------------------------------------------------------------------------
# building the sample model

class Sample:
    """The sample history, computed from the spec without running git."""

    def __init__(self):
        self.commits = []        # in emission order
        self.by_name = {}
        self.by_id = {}
        self.tags = []           # dicts: tag, target, annotated, id (object)
        self.heads = {}          # line -> commit
        self.code_at = {}        # (file, revision) -> code after its text
        self.build()

    # --- text -----------------------------------------------------------
    def expand(self, text):
        def sub(m):
            what, name = m.groups()
            c = self.by_name.get(name)
            if c is None:
                raise KeyError('placeholder names unknown or later commit %r'
                               % name)
            if what == 'id':
                return c['id']
            if what == 's':
                return c['subject']
            return c['id'][:int(what[1:])]
        return PH_RE.sub(sub, text)

    @staticmethod
    def signoff_block(body, people):
        body = body.rstrip('\n')
        sob = '\n'.join('Signed-off-by: ' + PEOPLE[p].addr for p in people)
        if not body:
            return sob + '\n'
        last = body.split('\n\n')[-1].split('\n')
        if all(re.match(r'^[A-Z][A-Za-z-]+: ', l) for l in last):
            return body + '\n' + sob + '\n'
        return body + '\n\n' + sob + '\n'

    # --- the model --------------------------------------------------------
    def build(self):
        k = 0
        for ev in sample_spec():
            if ev['kind'] == 'tag':
                tgt = self.by_name[ev['target']]
                self.tags.append(dict(tag=ev['tag'], target=tgt,
                                      annotated=ev['annotated']))
                continue
            # A commit with a delay is one fetched after the threads were
            # sent: it does not move their dates.
            ts = SAMPLE_T0 + k * SAMPLE_STEP + ev.get('delay', 0)
            k += 1
            line = ev['line']
            if ev['kind'] == 'commit':
                c = self.mainline_commit(ev, ts)
            elif ev['kind'] == 'stable':
                c = self.stable_commit(ev, ts)
            else:
                c = self.stable_revert(ev, ts)
            c['serial'] = k
            c['late'] = bool(ev.get('delay'))
            self.place(c, ev, line, k)
            self.by_name[c['name']] = c
            self.by_id[c['id']] = c
            self.commits.append(c)
        for t in self.tags:
            if t['annotated']:
                tagger = PEOPLE['lena' if t['target']['branch'] == 'mainline'
                                else 'greta']
                t['tagger'] = tagger.ident(t['target']['ts'] + 900)
                t['message'] = ('Linux %s\n' % t['tag'][1:]).encode()
                t['id'] = git_hash(b'tag', tag_body(
                    t['target']['id'], t['tag'], t['tagger'],
                    t['message'])).hex()
            else:
                t['id'] = None
        self.derive()

    def branch_of(self, line):
        return {'master': 'mainline', 'side': 'mainline'}.get(line, line)

    def mainline_commit(self, ev, ts):
        subject = self.expand(ev['subject'])
        author = ev['author']
        file = ev['file']
        committer = ev.get('committer') or COMMITTER.get(file, 'oskar')
        if ev.get('release_commit'):
            committer = author
        body = self.expand(ev['body'])
        if not ev.get('no_signoff') and not ev.get('release_commit'):
            people = [author] + ([committer] if committer != author else [])
            body = self.signoff_block(body, people)
        msg = subject + '\n' + ('\n' + body if body else '')
        return dict(name=ev['name'], subject=subject, msg=msg,
                    author=author, committer=committer, file=file,
                    kind='merge' if ev.get('merge') else 'normal',
                    release_commit=bool(ev.get('release_commit')),
                    makefile=ev.get('makefile'), ts=ts,
                    decl_upstream=[], decl_reverts=ev.get('reverts', []),
                    needs=ev.get('needs', []),
                    branch=self.branch_of(ev['line']))

    def stable_commit(self, ev, ts):
        ups = ev['up'] if isinstance(ev['up'], list) else [ev['up']]
        u0 = self.by_name[ups[0]]
        subject = ev['subject'] or u0['subject']
        orig = u0['msg'].split('\n', 2)[2] if '\n\n' in u0['msg'] else ''
        form = ev['form']
        extra = self.expand(ev['extra']) if ev['extra'] else ''
        tail = 'Signed-off-by: %s\n' % PEOPLE['greta'].addr
        if ev.get('author_signoff'):
            tail = ('Signed-off-by: %s\n' % PEOPLE[ev['author_signoff']].addr
                    + tail)
        if form in ('cherry', 'cherry2'):
            cp = ''.join('(cherry picked from commit %s)\n'
                         % self.by_name[u]['id'] for u in ups)
            body = orig + cp + (extra + '\n' if extra else '') + tail
        else:
            head = UPSTREAM_FORMS[form].format(id=u0['id'])
            body = head + '\n\n' + orig + (extra + '\n' if extra else '') + tail
        msg = subject + '\n\n' + body
        return dict(name=ev['name'], subject=subject, msg=msg,
                    author=ev['author'] or u0['author'], committer='greta',
                    file=u0['file'], kind='stable', release_commit=False,
                    makefile=None, ts=ts, decl_upstream=ups, decl_reverts=[],
                    needs=[], branch=ev['line'])

    def stable_revert(self, ev, ts):
        tgt = self.by_name[ev['target']]
        up = self.by_name[tgt['decl_upstream'][0]]
        subject = 'Revert%s "%s"' % (':' if ev['colon'] else '', tgt['subject'])
        body = ('This reverts commit %s which was\ncommit %s upstream.\n\n%s\n\n'
                'Signed-off-by: %s\n' % (tgt['id'], up['id'], ev['reason'],
                                         PEOPLE[ev['author']].addr))
        return dict(name=ev['name'], subject=subject,
                    msg=subject + '\n\n' + body, author=ev['author'],
                    committer='greta', file=tgt['file'], kind='stable-revert',
                    release_commit=False, makefile=None, ts=ts,
                    decl_upstream=[], decl_reverts=[ev['target']],
                    needs=[], branch=ev['line'], revert_of=tgt)

    def place(self, c, ev, line, k):
        """Parents, tree and id of C on LINE."""
        fork = ev.get('fork')
        if fork:
            parent = self.by_name[fork]
        else:
            parent = self.heads.get(line)
        parents = [parent] if parent else []
        if ev.get('merge'):
            parents.append(self.heads[ev['merge']])
        if parent:
            state = dict(parent['state'])
        else:
            state = {f: None if f in LATE_FILES else 0 for f in FILES}
            state['Makefile'] = ev['makefile']
        if len(parents) == 2:
            # Take the other side's changes since the fork.
            side = parents[1]
            base = self.by_name[self.fork_of(side)]
            for f, v in side['state'].items():
                if base['state'][f] != v:
                    state[f] = v
        if c['file'] == 'Makefile':
            state['Makefile'] = ev['makefile']
        elif c.get('revert_of') is not None:
            # A stable revert puts the file back to the reverted commit's
            # parent revision.
            r = c['revert_of']
            state[c['file']] = r['parents'][0]['state'][c['file']]
        elif c['file']:
            state[c['file']] = k
            if ev.get('code'):
                # code of this revision of the file, after the stand-in text
                self.code_at[(c['file'], k)] = ev['code'].encode()
        c['state'] = state
        c['parents'] = parents
        c['line'] = line
        tree = tree_from_files(self.files_of(state))
        c['tree'] = tree.hex()
        who_a = PEOPLE[c['author']]
        who_c = PEOPLE[c['committer']]
        # Author dates run a little ahead of the commit (patches wait in a
        # maintainer's queue); stable backports keep the original's date.
        a_ts = c['ts'] - 3600 * (1 + k % 5)
        c['author_ident'] = who_a.ident(a_ts)
        c['committer_ident'] = who_c.ident(c['ts'])
        c['msg_bytes'] = c['msg'].encode()
        c['id'] = git_hash(b'commit', commit_body(
            c['tree'], [p['id'] for p in parents], c['author_ident'],
            c['committer_ident'], c['msg_bytes'])).hex()
        self.heads[line] = c

    def fork_of(self, c):
        while c['line'] == 'side':
            c = c['parents'][0]
        return c['name']

    def files_of(self, state):
        files = {p: git_hash(b'blob', self.blob_of(state, f))
                 for f, p in FILES.items() if state[f] is not None}
        files['Makefile'] = git_hash(b'blob', makefile_blob(state['Makefile']))
        files['README'] = git_hash(b'blob', README_BLOB)
        return files

    def blob_of(self, state, key):
        if key == 'Makefile':
            return makefile_blob(state['Makefile'])
        return (source_blob(FILES[key], state[key]) +
                self.code_at.get((key, state[key]), b''))

    # --- derived facts ----------------------------------------------------
    def resolve(self, abbrev):
        hits = [i for i in self.by_id if i.startswith(abbrev)]
        if len(hits) != 1:
            return None
        return hits[0]

    def ancestors(self, c):
        seen = set()
        stack = [c]
        while stack:
            x = stack.pop()
            if x['id'] in seen:
                continue
            seen.add(x['id'])
            stack.extend(x['parents'])
        return seen

    def derive(self):
        self.tags.sort(key=lambda t: parse_version(t['tag']))
        tag_sets = [(t['tag'], self.ancestors(t['target'])) for t in self.tags]
        for c in self.commits:
            c['release'] = next((t for t, s in tag_sets if c['id'] in s), None)
            p = parse_changelog(c['msg'])
            c['parsed'] = p
            want_up = [self.by_name[n]['id'] for n in c['decl_upstream']]
            if p['upstream'] != want_up:
                raise AssertionError('%s: upstream lines %r, spec %r'
                                     % (c['name'], p['upstream'], want_up))
            want_rv = [self.by_name[n]['id'] for n in c['decl_reverts']]
            if p['reverts'] != want_rv:
                raise AssertionError('%s: reverts %r, spec %r'
                                     % (c['name'], p['reverts'], want_rv))
            c['upstream'] = p['upstream']
            c['reverts'] = p['reverts']
            c['fixes'] = [h for h, _ in p['fixes']]
            c['fixes_resolved'] = []
            for h, _ in p['fixes']:
                r = self.resolve(h)
                if r is None:
                    raise AssertionError('%s: Fixes %s does not resolve'
                                         % (c['name'], h))
                c['fixes_resolved'].append(r)
        # backports
        for c in self.commits:
            c['backports'] = {}
        for c in self.commits:
            if c['branch'] == 'mainline':
                continue
            for u in c['upstream']:
                self.by_id[u]['backports'].setdefault(c['branch'], []).append(
                    {'id': c['id'], 'release': c['release']})
        # fixed_by: whose Fixes or revert names this commit or, for a
        # mainline commit, one of its backports.
        for c in self.commits:
            c['fixed_by'] = []
        for f in self.commits:
            for t in f['fixes_resolved'] + f['reverts']:
                targets = [self.by_id[t]]
                for u in self.by_id[t]['upstream']:
                    targets.append(self.by_id[u])
                for x in targets:
                    if f['id'] not in x['fixed_by']:
                        x['fixed_by'].append(f['id'])

    def tag(self, name):
        return next(t for t in self.tags if t['tag'] == name)


# --------------------------------------------------------------------------
# sample: fast-import

def sample_stream(s, w):
    marks = {}
    for n, c in enumerate(s.commits, 1):
        marks[c['name']] = n
    emitted = set()
    tags_by_target = {}
    for t in s.tags:
        tags_by_target.setdefault(t['target']['name'], []).append(t)
    for c in s.commits:
        ref = {'master': 'refs/heads/master', 'side': 'refs/heads/master'}.get(
            c['line'], 'refs/heads/' + c['line'])
        out = [b'commit %s\n' % ref.encode(), b'mark :%d\n' % marks[c['name']],
               b'author %s\n' % c['author_ident'].encode(),
               b'committer %s\n' % c['committer_ident'].encode(),
               fi_data(c['msg_bytes'])]
        ps = c['parents']
        if ps:
            out.append(b'from :%d\n' % marks[ps[0]['name']])
        for p in ps[1:]:
            out.append(b'merge :%d\n' % marks[p['name']])
        old = ps[0]['state'] if ps else {}
        for key in ['Makefile'] + list(FILES):
            if old.get(key) != c['state'][key]:
                path = 'Makefile' if key == 'Makefile' else FILES[key]
                out.append(b'M 100644 inline %s\n' % path.encode())
                out.append(fi_data(s.blob_of(c['state'], key)))
        if not ps:
            out.append(b'M 100644 inline README\n' + fi_data(README_BLOB))
        out.append(b'\n')
        w.write(b''.join(out))
        emitted.add(c['name'])
        for t in tags_by_target.get(c['name'], []):
            if t['annotated']:
                w.write(b'tag %s\nfrom :%d\ntagger %s\n' % (
                    t['tag'].encode(), marks[c['name']], t['tagger'].encode())
                    + fi_data(t['message']) + b'\n')
            else:
                w.write(b'reset refs/tags/%s\nfrom :%d\n\n'
                        % (t['tag'].encode(), marks[c['name']]))
    return marks


# The sample's linux-next: refs/remotes/next/master, two commits on top of
# master that fixscan sees only with fixscan.pending set (make demo and
# t0585 set it; the other tests and answers.json do not).  The first is
# the commit of the fix posted to the list as L4 (its title): one
# fix-pending with both.  The second is a fix of patch 23's upstream that
# only next has.
SAMPLE_PENDING = [
    ('nadia', 'block: check for an empty bio before bio_last_page()',
     'The merge checks now call bio_last_page(), which has no page to give\n'
     'for an empty bio; look at bi_vcnt first.\n\n'
     'Fixes: {h12:u_prq_base} ("{s:u_prq_base}")'),
    ('nadia', 'tcp: check the fastopen queue before the child socket takes it',
     'The child socket may outlive the listener\'s fastopen queue.\n\n'
     'Fixes: {h12:u_prq_series} ("{s:u_prq_series}")'),
]


def sample_pending(repo, s):
    tip = s.heads['master']['id']
    tree = git(repo, 'rev-parse', tip + '^{tree}').decode().strip()
    ts = int(s.heads['master']['committer_ident'].split()[-2])
    for k, (who, subject, body) in enumerate(SAMPLE_PENDING, 1):
        p = PEOPLE[who]
        date = '@%d %s' % (ts + 3600 * k, p.tz)
        env = dict(os.environ, GIT_AUTHOR_NAME=p.name, GIT_AUTHOR_EMAIL=p.email,
                   GIT_AUTHOR_DATE=date, GIT_COMMITTER_NAME=p.name,
                   GIT_COMMITTER_EMAIL=p.email, GIT_COMMITTER_DATE=date)
        msg = subject + '\n\n' + Sample.signoff_block(s.expand(body), [who])
        tip = git(repo, 'commit-tree', tree, '-p', tip, '-m', msg,
                  env=env).decode().strip()
    git(repo, 'update-ref', 'refs/remotes/next/master', tip)


def cmd_sample(args):
    t0 = time.time()
    s = Sample()
    new_repo(args.dir)
    marks_file = os.path.join(args.dir, '.git', 'gen-kernel.marks')
    proc = start_fast_import(args.dir, ['--export-marks=' + marks_file])
    marks = sample_stream(s, proc.stdin)
    finish_fast_import(proc)
    # Check every id computed here against what git wrote.
    got = {}
    with open(marks_file) as f:
        for ln in f:
            m, sha = ln.split()
            got[int(m[1:])] = sha
    os.unlink(marks_file)
    bad = [c['name'] for c in s.commits if got.get(marks[c['name']]) != c['id']]
    if bad:
        die('computed ids differ from git for: ' + ', '.join(bad))
    refs = dict(l.split(' ', 1)[::-1] for l in git(
        args.dir, 'for-each-ref', '--format=%(objectname) %(refname)')
        .decode().splitlines())
    for t in s.tags:
        want = t['id'] or t['target']['id']
        if refs.get('refs/tags/' + t['tag']) != want:
            die('tag %s: git has %s, computed %s'
                % (t['tag'], refs.get('refs/tags/' + t['tag']), want))
    for line, ref in (('master', 'master'), ('linux-4.4.y', 'linux-4.4.y'),
                      ('linux-4.5.y', 'linux-4.5.y')):
        if refs.get('refs/heads/' + ref) != s.heads[line]['id']:
            die('branch %s does not match' % ref)
    git(args.dir, 'reset', '-q', '--hard', 'master')
    sample_pending(args.dir, s)
    with open(os.path.join(args.dir, '.git', 'info', 'exclude'), 'a') as f:
        f.write('answers.json\n')
    with open(os.path.join(args.dir, 'answers.json'), 'w',
              encoding='utf-8') as f:
        f.write(answers_json(s))
    sys.stderr.write('gen-kernel: sample: %d commits, %d tags in %.1fs\n'
                     % (len(s.commits), len(s.tags), time.time() - t0))


# --------------------------------------------------------------------------
# sample mail: the review threads and the list mails

DAYS = ('Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun')
MONTHS = ('Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep',
          'Oct', 'Nov', 'Dec')


def tz_seconds(tz):
    sign = -1 if tz[0] == '-' else 1
    return sign * (int(tz[1:3]) * 3600 + int(tz[3:5]) * 60)


def rfc2822_date(ts, tz):
    t = time.gmtime(ts + tz_seconds(tz))
    return '%s, %d %s %d %02d:%02d:%02d %s' % (
        DAYS[t.tm_wday], t.tm_mday, MONTHS[t.tm_mon - 1], t.tm_year,
        t.tm_hour, t.tm_min, t.tm_sec, tz)


def make_msgid(ts, serial, domain):
    t = time.gmtime(ts)
    return '<%04d%02d%02d%02d%02d%02d.%09d@%s>' % (
        t.tm_year, t.tm_mon, t.tm_mday, t.tm_hour, t.tm_min, t.tm_sec,
        serial, domain)


def q_words(text, prefix_len=0):
    """RFC 2047 Q encoding of TEXT as one or more encoded-words, each at
    most 75 characters, joined by folding whitespace."""
    words = []
    cur = ''
    for ch in text:
        if re.match(r'[A-Za-z0-9!*+/-]', ch):
            enc = ch
        elif ch == ' ':
            enc = '_'
        else:
            enc = ''.join('=%02X' % b for b in ch.encode('utf-8'))
        if len('=?UTF-8?q?' + cur + enc + '?=') > 75:
            words.append('=?UTF-8?q?' + cur + '?=')
            cur = ''
        cur += enc
    words.append('=?UTF-8?q?' + cur + '?=')
    return '\n '.join(words)


def addr_header(p):
    """A display name, RFC 2047 encoded when it is not ASCII."""
    if all(ord(ch) < 128 for ch in p.name):
        return p.addr
    return '%s <%s>' % (q_words(p.name), p.email)


def fold(name, value):
    """Fold a header line at spaces so that lines stay under 78 columns."""
    line = '%s: %s' % (name, value)
    out = []
    while len(line) > 78 and '\n' not in line:
        cut = line.rfind(' ', 0, 78)
        if cut <= len(name) + 2:
            break
        out.append(line[:cut])
        line = line[cut:]
    out.append(line)
    return '\n'.join(out)


def unified(path, old, new, git_style=False, old_id=None, new_id=None):
    a = old.decode().split('\n')
    b = new.decode().split('\n')
    body = list(difflib.unified_diff(a, b, 'a/' + path, 'b/' + path, n=3,
                                     lineterm=''))
    head = ''
    if git_style:
        head = ('diff --git a/%s b/%s\nindex %s..%s 100644\n'
                % (path, path, old_id[:12], new_id[:12]))
    ins = sum(1 for l in body[2:] if l.startswith('+'))
    dels = sum(1 for l in body[2:] if l.startswith('-'))
    return head + '\n'.join(body) + '\n', ins, dels


def diffstat(changes):
    """CHANGES: list of (path, ins, dels) -> diffstat text."""
    agg = {}
    for p, i, d in changes:
        a = agg.setdefault(p, [0, 0])
        a[0] += i
        a[1] += d
    w = max(len(p) for p in agg)
    lines = [' %-*s | %d %s' % (w, p, i + d, '+' * i + '-' * d)
             for p, (i, d) in sorted(agg.items())]
    ti = sum(i for i, _ in agg.values())
    td = sum(d for _, d in agg.values())
    lines.append(' %d file%s changed, %d insertion%s(+), %d deletion%s(-)' % (
        len(agg), '' if len(agg) == 1 else 's', ti, '' if ti == 1 else 's',
        td, '' if td == 1 else 's'))
    return '\n'.join(lines) + '\n'


class Mail:
    def __init__(self, headers, body, cte='7bit', ctype='text/plain'):
        self.headers = headers  # list of (name, value)
        self.body = body        # str
        self.cte = cte
        self.ctype = ctype
        self.ts = None
        self.msgid = dict(headers)['Message-Id']
        self.subject = dict(headers)['Subject']

    def render(self):
        hs = [fold(n, v) if n == 'Subject' and '=?' not in v else
              '%s: %s' % (n, v) for n, v in self.headers]
        raw = self.body.encode('utf-8')
        ascii_only = all(b < 128 for b in raw)
        if self.ctype.startswith('multipart/'):
            hs.append('MIME-Version: 1.0')
            hs.append('Content-Type: %s' % self.ctype)
            return ('\n'.join(hs) + '\n\n').encode() + raw
        if self.cte == 'quoted-printable':
            enc = quopri.encodestring(raw)
        elif self.cte == 'base64':
            enc = base64.encodebytes(raw)
        elif not ascii_only:
            self.cte = '8bit'
            enc = raw
        else:
            enc = raw
        if self.cte != '7bit' or not ascii_only:
            hs.append('MIME-Version: 1.0')
            hs.append('Content-Type: text/plain; charset=UTF-8')
            hs.append('Content-Transfer-Encoding: %s' % self.cte)
        return ('\n'.join(hs) + '\n\n').encode() + enc


# The line a backport adds that its upstream commit does not
# (backport-differs).
DIFF_EXTRA = b'/* 4.4: keep the old fallback */\n'

UNKNOWN_UPSTREAM = hashlib.sha1(b'fixscan sample: a commit that no repository '
                                b'has').hexdigest()

REVIEW44 = dict(
    name='review-4.4', series='4.4', branch='linux-4.4.y', base='v4.4.6',
    release='4.4.7', version='4.4.7-rc1', style='quilt',
    patches=[
        dict(up=['u_clean1'], expect=[], diff='extra-documented',
             extra='[ greta: kept the 4.4 fallback, the new code needs a '
                   'later rework ]',
             note='clean; a list mail names its id without reporting a '
                  'problem; its oops dump holds a register value that is a '
                  '16-hex prefix of a real commit; its diff has a line '
                  'upstream\'s has not, and its changelog says why'),
        dict(up=['u_clean2'], expect=[('backport-differs', 'u_clean2', {})],
             diff='extra',
             note='two Fixes: tags, both naming commits in the base; its '
                  'diff has a line upstream\'s has not, and its changelog '
                  'does not say why'),
        dict(up=['u_fm'], expect=[('fix-missing', 'f_fm', {}),
                                  ('series-partial', 'u_fm', {})],
             note='a later mainline commit fixes it; a reviewer asks for it; '
                  'part 2 of its posting (u_fm2) is in mainline, not here'),
        dict(up=['u_fq'], cte='quoted-printable',
             expect=[('fix-queued', 'f_fq', {'index': 5})],
             note='its fix is patch 05 of this series; body in '
                  'quoted-printable'),
        dict(up=['f_fq'], expect=[],
             note='the fix of 04, "Fixes: commit <id> (...)" form; its '
                  'target is queued in the same series'),
        dict(up=['u_fp'], cte='base64',
             expect=[('fix-present', 'f_fp', {'stable_id': 's_fp',
                                               'release': 'v4.4.3'})],
             note='its fix is already in linux-4.4.y (v4.4.3); body in base64'),
        dict(up=['u_rv'], expect=[('reverted-upstream', 'r_rv', {})],
             note='reverted in mainline; a reviewer asks to drop it'),
        dict(up=['u_dup'], form='commit-nodot',
             expect=[('already-applied', 's_dup', {'release': 'v4.4.2'})],
             note='already backported as a stable commit in v4.4.2'),
        dict(up=['b_anc'],
             expect=[('already-applied', 'b_anc', {'release': 'v4.4-rc1'})],
             note='its upstream commit is an ancestor of v4.4'),
        dict(up=['u_ta'], rfc2047_subject=True,
             expect=[('target-absent', 't_ta', {})],
             note='Fixes: (8 hex) names a mainline commit after v4.4 that '
                  'the branch does not have; RFC 2047 encoded subject'),
        dict(noup=dict(author='fumiko', file='ext4',
                       subject='ext4: silence a maybe-uninitialized warning '
                               'with gcc 6',
                       body='gcc 6 warns that "err" may be used uninitialized '
                            'in ext4_setattr() on\nthe 4.4 tree.  The upstream '
                            'code was rewritten long ago, so there is\nno '
                            'single commit to backport; initialise the '
                            'variable instead.\n'),
             expect=[('no-upstream', None, {})],
             note='a stable-only patch without any upstream reference'),
        dict(unknown=dict(author='gus', file='pci',
                          subject='PCI: fix the ROM shadow check for '
                                  'legacy VGA devices',
                          body='The shadow copy of a legacy VGA ROM was '
                               'ignored when the device also\nhas a ROM '
                               'BAR.\n'),
             expect=[('unknown-upstream', UNKNOWN_UPSTREAM, {})],
             note='names an upstream id that no commit in the repo has'),
        dict(up=['u_rr1'], expect=[('regression-report', 'u_rr1',
                                    {'mail': 'L1'})],
             note='a list mail bisects a regression to its upstream id; '
                  'the author name is not ASCII (RFC 2047 in Cc:)'),
        dict(up=['u_rr2'], expect=[('regression-report', 'u_rr2',
                                    {'mail': 'L2'})],
             note='a list mail reports a regression quoting its subject'),
        dict(up=['u_dm'], expect=[('dep-missing', 'd_dm', {})],
             note='"Cc: stable@vger.kernel.org # 4.4.x: <id>: prerequisite" '
                  'names a commit neither in the branch nor in the series'),
        dict(up=['u_mm'], expect=[('fixes-tag-mismatch', 'b_mm_B', {})],
             note='Fixes: hash names one commit, the quoted subject another '
                  '(both in the base); long subject folded in the header'),
        dict(up=['u_st'], expect=[('fixes-tag-mismatch', 'm_x',
                                   {'note': 'names the linux-4.4.y id s_x'})],
             note='Fixes: names the stable id of a backport instead of the '
                  'mainline id'),
        dict(revert='s_y', expect=[],
             note='reverts a linux-4.4.y commit by its stable id '
                  '("This reverts commit <stable> which was / commit '
                  '<upstream> upstream."); no upstream of its own'),
        dict(up=['u_cp1', 'u_cp2'], form='cherry2',
             expect=[('fix-missing', 'f_cp2', {})],
             note='two "(cherry picked from commit ...)" lines; the second '
                  'upstream has a missing fix'),
        dict(up=['u_ch'], expect=[('fix-queued', 'f_ch1', {'index': 21}),
                                  ('fix-missing', 'f_ch2', {'via': 'f_ch1'})],
             note='its fix is queued as 21, but the fix of that fix is '
                  'missing'),
        dict(up=['f_ch1'], expect=[('fix-missing', 'f_ch2', {})],
             note='the queued fix of 20; its Fixes: subject wraps onto the '
                  'next line; its own fix (40-hex Fixes:) is missing'),
        dict(up=['a3'], expect=[('fix-missing', 'b3', {}),
                                ('fix-missing', 'c3', {'via': 'b3'}),
                                ('fix-missing', 'd3', {'via': 'c3'})],
             note='a three-deep chain of missing fixes'),
        dict(up=['u_prq_series'], expect=[],
             note='its "prerequisite" is patch 01 of this series'),
        dict(up=['u_prq_base'], expect=[('fix-pending', None, {'mail': 'L4'})],
             note='its prerequisite (named with its subject) is in '
                  'linux-4.4.y since v4.4.4; a fix of it is posted on the '
                  'list (L4) but not in mainline'),
        dict(up=['u_ror'], expect=[('reverted-upstream', 'r_ror1',
                                    {'cause': 'revert-of-revert'})],
             note='reverted in mainline, then applied again by a revert of '
                  'the revert: said, but nothing to queue or drop'),
        dict(up=['u_ris'], expect=[('reverted-in-stable', 's_ris_revert', {})],
             note='linux-4.5.y reverted its own backport of it (a stable-only '
                  'revert): a question for the maintainer, not a fix to queue'),
        dict(up=['u_clean2'], expect=[('duplicate-in-series', 'u_clean2',
                                       {'index': 2})],
             note='the same upstream commit as patch 02'),
    ],
    replies=[
        dict(to=0, who='priya', kind='tested'),
        dict(to=7, who='wei', kind='drop'),
        dict(to=3, who='dmitri', kind='needs', commit='f_fm'),
    ])

REVIEW45 = dict(
    name='review-4.5', series='4.5', branch='linux-4.5.y', base='v4.5.3',
    release='4.5.4', version=None, style='autosel',
    patches=[
        dict(up=['u46_clean'], multipart=True, expect=[],
             note='clean; sent inside a multipart/mixed wrapper'),
        dict(up=['u46_dep'],
             extra='Stable-dep-of: {h12:u46_needs} ("{s:u46_needs}")',
             expect=[], note='Stable-dep-of: names patch 03 of this series'),
        dict(up=['u46_needs'], expect=[], note='clean'),
        dict(up=['u46_depmiss'],
             extra='Stable-dep-of: {h12:u46_x} ("{s:u46_x}")',
             expect=[('dep-missing', 'u46_x', {})],
             note='Stable-dep-of: names a commit neither in linux-4.5.y nor '
                  'in the series'),
        dict(up=['u_fm'], expect=[('fix-missing', 'f_fm', {}),
                                  ('series-partial', 'u_fm', {})],
             note='the same upstream as review-4.4 patch 03, same findings'),
        dict(up=['u_settle_use'], expect=[('symbol-missing', 'u_settle_base', {})],
             note='its diff calls hub_port_settle_ms(), which linux-4.5.y has '
                  'nowhere: a mainline commit after 4.5 added it in a header of '
                  'its own, and the backport cannot build without that one'),
        dict(up=['u_na'], expect=[('fix-not-applicable', 'f_na', {})],
             note='its one mainline fix changes only drivers/usb/typec/, which '
                  'linux-4.5.y does not have: nothing to ask for'),
    ],
    replies=[])

LISTS = [
    dict(key='L1', who='ravi', to='jose', cc=['oskar'],
         subject='[REGRESSION] ALSA: pcm: drain never returns on USB audio '
                 '(bisected)',
         body='Hi,\n\nsince v4.6-rc1 "aplay" hangs at the end of every file '
              'played through my\nUSB headset; the process sits in '
              'snd_pcm_drain() until it is killed.\nv4.5 works.\n\n'
              'I bisected it, and git bisect names this as the first bad '
              'commit:\n\n  {h12:u_rr1} ("{s:u_rr1}")\n\n'
              'Reverting it on top of v4.6-rc2 makes the hang go away.  '
              'Happy to test\npatches.\n\nThanks,\nRavi\n'),
    dict(key='L2', who='priya', to='bart', cc=[],
         subject='usb: hub: devices behind a powered hub missing after '
                 'resume',
         body='Hello,\n\nour CI boards lose every device behind their '
              'powered hub after a\nsuspend/resume cycle.  This is a '
              'regression; it started when\n"{s:u_rr2}" was merged, and the '
              'boards are fine without it.\n\nLogs are attached to the CI '
              'report linked below.\n\nPriya\n'),
    dict(key='L3', who='nadia', to='dmitri', cc=[],
         subject='Re: [PATCH net] {s:u_clean1}',
         body='Dmitri Orlov <dorlov@example.com> wrote:\n'
              '> Enabling TCP_FASTOPEN on a socket that is already listening '
              'leaves\n> the fastopen queue unallocated, and the next SYN with '
              'a cookie\n> crashes.\n\n'
              'Applied to net and queued for -stable, thanks.  It is commit\n'
              '{h12:u_clean1} in the net tree.\n'),
    # A fix posted but not in mainline.  Its Message-Id takes a serial of
    # its own, so that the review threads' ids stay those of before.
    dict(key='L4', who='nadia', to='lena', cc=[], serial=99990001,
         subject='[PATCH] block: check for an empty bio before '
                 'bio_last_page()',
         body='The merge checks now call bio_last_page(), which has no page '
              'to give\nfor an empty bio; look at bi_vcnt first.\n\n'
              'Fixes: {h12:u_prq_base} ("{s:u_prq_base}")\n'
              '---\n'
              ' block/blk-merge.c | 2 ++\n 1 file changed, 2 insertions(+)\n'),
]


def autosel_patch_header(n, total, series):
    return '[PATCH AUTOSEL %s %02d/%02d]' % (series, n, total)


class Threads:
    """Both review threads and the list mails, as Mail objects, plus the
    expected findings computed by a small reference review."""

    def __init__(self, s):
        self.s = s
        last = max(c['ts'] for c in s.commits if not c['late'])
        self.t0 = last - last % 3600 + 2 * 86400 + 13 * 3600 + 44 * 60 + 51
        self.serial = 100000000
        self.mails = {}        # maildir name -> [Mail]
        self.lists_by_key = {}
        self.lists()
        self.review = {}
        for th in (REVIEW44, REVIEW45):
            self.review[th['name']] = self.thread(th)

    def next_serial(self):
        self.serial += 7919
        return self.serial

    # --- list mails -------------------------------------------------------
    def lists(self):
        out = []
        for i, l in enumerate(LISTS):
            ts = self.t0 - (6 - i) * 86400 + 1234 * i
            who = PEOPLE[l['who']]
            hs = [('From', addr_header(who)),
                  ('To', 'linux-kernel@vger.kernel.org'),
                  ('Cc', ', '.join(addr_header(PEOPLE[p])
                                   for p in [l['to']] + l['cc'])),
                  ('Subject', self.s.expand(l['subject'])),
                  ('Date', rfc2822_date(ts, who.tz)),
                  ('Message-Id', make_msgid(ts, l.get('serial') or self.next_serial(),
                                            who.email.split('@')[1]))]
            m = Mail(hs, self.s.expand(l['body']))
            m.ts = ts
            m.key = l['key']
            self.lists_by_key[l['key']] = m
            out.append(m)
        self.mails['lists'] = out

    # --- one thread ---------------------------------------------------------
    def patch_text(self, th, p):
        """(author, subject, changelog, diff, changes) of patch P."""
        s = self.s
        base = s.tag(th['base'])['target']
        git_style = th['style'] == 'autosel'
        if 'up' in p:
            ups = [s.by_name[n] for n in p['up']]
            u0 = ups[0]
            author = u0['author']
            subject = u0['subject']
            orig = u0['msg'].split('\n', 2)[2]
            extra = s.expand(p['extra']) + '\n' if p.get('extra') else ''
            if th['style'] == 'autosel':
                tail = 'Signed-off-by: %s\n' % PEOPLE['sami'].addr
            else:
                tail = 'Signed-off-by: %s\n' % PEOPLE['greta'].addr
            form = p.get('form', 'bracket' if th['style'] == 'autosel'
                         else 'commit-dot')
            if form == 'cherry2':
                cl = (orig + ''.join('(cherry picked from commit %s)\n'
                                     % u['id'] for u in ups) + extra + tail)
            else:
                cl = (UPSTREAM_FORMS[form].format(id=u0['id']) + '\n\n' + orig
                      + extra + tail)
            first, last = ups[0], ups[-1]
            old_state = first['parents'][0]['state']
            key = first['file']
            old = s.blob_of(old_state, key)
            new = s.blob_of(last['state'], key)
            if p.get('diff') in ('extra', 'extra-documented'):
                # a backport that is not quite the upstream change
                new += DIFF_EXTRA
        elif 'revert' in p:
            tgt = s.by_name[p['revert']]
            up = s.by_id[tgt['upstream'][0]]
            author = 'greta'
            subject = 'Revert "%s"' % tgt['subject']
            cl = ('This reverts commit %s which was\ncommit %s upstream.\n\n'
                  'It makes resume from suspend hang on boards with a shared '
                  'PMIC supply;\nthe locking it relies on came with later '
                  'changes that 4.4 does not have.\n\n'
                  'Reported-by: Ravi Menon <ravi.menon@example.com>\n'
                  'Signed-off-by: %s\n' % (tgt['id'], up['id'],
                                           PEOPLE['greta'].addr))
            key = tgt['file']
            old = s.blob_of(tgt['state'], key)
            new = s.blob_of(tgt['parents'][0]['state'], key)
        else:
            d = p.get('noup') or p.get('unknown')
            author = d['author']
            subject = d['subject']
            cl = d['body'] + '\n'
            if 'unknown' in p:
                cl = 'commit %s upstream.\n\n' % UNKNOWN_UPSTREAM + cl
            cl += ('Signed-off-by: %s\nSigned-off-by: %s\n'
                   % (PEOPLE[author].addr, PEOPLE['greta'].addr))
            key = d['file']
            old = s.blob_of(base['state'], key)
            new = source_blob(FILES[key], 9000 + len(subject))
        path = 'Makefile' if key == 'Makefile' else FILES[key]
        diff, ins, dels = unified(path, old, new, git_style,
                                  git_hash(b'blob', old).hex(),
                                  git_hash(b'blob', new).hex())
        return author, subject, cl, diff, [(path, ins, dels)]

    def thread(self, th):
        s = self.s
        n = len(th['patches'])
        ts0 = self.t0 + (0 if th['style'] == 'quilt' else 3 * 86400)
        mails = []
        patches = []
        texts = [self.patch_text(th, p) for p in th['patches']]
        stable = PEOPLE['greta' if th['style'] == 'quilt' else 'sami']
        domain = stable.email.split('@')[1]
        cover = None
        if th['style'] == 'quilt':
            cover_id = make_msgid(ts0, self.next_serial(), domain)
            changes = [c for t in texts for c in t[4]]
            changes.append(('Makefile', 2, 2))
            shortlog = '%s\n    Linux %s\n\n' % (stable.addr, th['version'])
            for t in reversed(texts):
                shortlog += '%s\n    %s\n\n' % (PEOPLE[t[0]].addr, t[1])
            deadline = ts0 + 2 * 86400
            dl = time.gmtime(deadline)
            body = (
                'This is the start of the stable review cycle for the %s '
                'release.\nThere are %d patches in this series, all will be '
                'posted as a response\nto this one.  If anyone has any issues '
                'with these being applied, please\nlet me know.\n\n'
                'Responses should be made by %s.\n'
                'Anything received after that time might be too late.\n\n'
                'The whole patch series can be found in one patch at:\n'
                '\thttps://www.kernel.org/pub/linux/kernel/v4.x/stable-review/'
                'patch-%s.gz\n'
                'or in the git tree and branch at:\n'
                '\tgit://git.kernel.org/pub/scm/linux/kernel/git/stable/'
                'linux-stable-rc.git %s\n'
                'and the diffstat can be found below.\n\n'
                'thanks,\n\ngreta k-h\n\n'
                '-------------\nPseudo-Shortlog of commits:\n\n%s'
                '-------------\n\nDiffstat:\n\n%s'
                % (th['release'], n, rfc2822_date(deadline, '+0000'),
                   th['version'], th['branch'], shortlog, diffstat(changes)))
            hs = [('From', stable.addr),
                  ('To', 'linux-kernel@vger.kernel.org'),
                  ('Cc', '%s, lena@mainline.example.org, '
                         'akpm@linux-foundation.example.org, '
                         'priya@ci.example.org, stable@vger.kernel.org'
                         % stable.addr),
                  ('Subject', '[PATCH %s %02d/%02d] %s-stable review'
                   % (th['series'], 0, n, th['release'])),
                  ('Date', rfc2822_date(ts0, stable.tz)),
                  ('Message-Id', cover_id),
                  ('User-Agent', 'quilt/0.64'),
                  ('X-stable', 'review'),
                  ('X-Patchwork-Hint', 'ignore'),
                  ('X-KernelTest-Patch', 'http://kernel.org/pub/linux/kernel/'
                   'v4.x/stable-review/patch-%s.gz' % th['version']),
                  ('X-KernelTest-Tree', 'git://git.kernel.org/pub/scm/linux/'
                   'kernel/git/stable/linux-stable-rc.git'),
                  ('X-KernelTest-Branch', th['branch']),
                  ('X-KernelTest-Patches', 'git://git.kernel.org/pub/scm/'
                   'linux/kernel/git/stable/stable-queue.git'),
                  ('X-KernelTest-Version', th['version']),
                  ('X-KernelTest-Deadline', '%04d-%02d-%02dT%02d:%02d+00:00' % (
                      dl.tm_year, dl.tm_mon, dl.tm_mday, dl.tm_hour,
                      dl.tm_min))]
            cover = Mail(hs, body)
            cover.ts = ts0
            mails.append(cover)
        root = cover
        for i, (p, t) in enumerate(zip(th['patches'], texts), 1):
            author, subject, cl, diff, changes = t
            ts = ts0 + i
            mid = make_msgid(ts, self.next_serial(), domain)
            a = PEOPLE[author]
            if th['style'] == 'quilt':
                body = ('%s-stable review patch.  If anyone has any objections, '
                        'please let me know.\n\n------------------\n\n'
                        % th['series'])
                body += 'From: %s\n\n' % a.addr + cl + '\n---\n'
                body += diffstat(changes) + '\n' + diff
                subj = '[PATCH %s %02d/%02d] %s' % (th['series'], i, n, subject)
            else:
                body = 'From: %s\n\n' % a.addr + cl + '---\n'
                body += diffstat(changes) + '\n' + diff + '-- \n2.7.4\n\n'
                subj = '%s %s' % (autosel_patch_header(i, n, th['series']),
                                  subject)
            if p.get('rfc2047_subject'):
                subj = q_words(subj)
            cc = [stable.addr, 'stable@vger.kernel.org', addr_header(a)]
            up = [s.by_name[x] for x in p.get('up', [])]
            for c in up:
                cc.append(addr_header(PEOPLE[c['committer']]))
            cc = [x for i, x in enumerate(cc) if x not in cc[:i]]
            hs = [('From', stable.addr),
                  ('To', 'linux-kernel@vger.kernel.org' if th['style'] == 'quilt'
                   else 'linux-kernel@vger.kernel.org, stable@vger.kernel.org'),
                  ('Cc', ', '.join(cc)),
                  ('Subject', subj),
                  ('Date', rfc2822_date(ts, stable.tz)),
                  ('Message-Id', mid)]
            if root is not None:
                hs += [('In-Reply-To', root.msgid), ('References', root.msgid)]
            if th['style'] == 'quilt':
                hs.append(('User-Agent', 'quilt/0.64'))
            else:
                hs.append(('X-Mailer', 'git-send-email 2.7.4'))
                hs.append(('X-stable', 'review'))
            if p.get('multipart'):
                bnd = '=-fixscan-sample-%d' % i
                wrapped = ('This is a multi-part message in MIME format.\n\n'
                           '--%s\nContent-Type: text/plain; charset=UTF-8\n'
                           'Content-Transfer-Encoding: 8bit\n\n%s\n--%s--\n'
                           % (bnd, body, bnd))
                m = Mail(hs, wrapped,
                         ctype='multipart/mixed; boundary="%s"' % bnd)
            else:
                m = Mail(hs, body, cte=p.get('cte', '7bit'))
            m.ts = ts
            mails.append(m)
            if root is None:
                root = m
            patches.append(dict(index=i, mail=m, spec=p, author=author,
                                subject=subject, changelog=cl))
        for j, r in enumerate(th['replies']):
            mails.append(self.reply(th, r, mails, patches, ts0 + 86400 + 3600 * j))
        self.mails[th['name']] = mails
        expected = self.reference_review(th, patches)
        for p, (got, ups) in zip(patches, expected):
            want = self.declared(p['spec'])
            if sorted(map(repr, want)) != sorted(map(repr, got)):
                raise AssertionError('%s %02d: spec expects %r, reference '
                                     'review finds %r' % (th['name'],
                                                          p['index'], want, got))
            p['expected'] = got
            p['upstreams'] = ups
        return dict(th=th, cover=cover, patches=patches)

    def reply(self, th, r, mails, patches, ts):
        s = self.s
        who = PEOPLE[r['who']]
        parent = mails[r['to']] if th['style'] == 'quilt' else mails[r['to'] - 1]
        cover = mails[0]
        ps = parent.subject.replace('\n', '')
        subj = 'Re: ' + ps
        stable = PEOPLE['greta']
        quote_head = 'On %s, %s wrote:\n' % (rfc2822_date(parent.ts, stable.tz),
                                             stable.name)
        if r['kind'] == 'tested':
            body = (quote_head +
                    '> This is the start of the stable review cycle for the '
                    '%s release.\n> There are %d patches in this series, all '
                    'will be posted as a response\n> to this one.  If anyone '
                    'has any issues with these being applied, please\n> let '
                    'me know.\n\nBuilt and booted on our x86_64, arm64 and '
                    'arm boards, no problems\nseen.\n\nTested-by: %s\n'
                    % (th['release'], len(th['patches']), who.addr))
        elif r['kind'] == 'drop':
            pt = patches[r['to'] - 1]
            fix = s.by_name['r_rv']
            body = (quote_head + '> %s-stable review patch.  If anyone has any '
                    'objections, please let me know.\n>\n> From: %s\n\n'
                    'Please drop this, it breaks the build on arm, and it was '
                    'reverted\nupstream by commit %s\n("%s").\n\n%s\n'
                    % (th['series'], PEOPLE[pt['author']].addr, fix['id'][:12],
                       fix['subject'], who.name.split()[0]))
        else:
            pt = patches[r['to'] - 1]
            fix = s.by_name[r['commit']]
            body = (quote_head + '> %s-stable review patch.  If anyone has any '
                    'objections, please let me know.\n>\n> From: %s\n\n'
                    'This needs commit %s ("%s") as well, otherwise\nthe check '
                    'can still be bypassed.\n\n%s\n'
                    % (th['series'], PEOPLE[pt['author']].addr, fix['id'][:12],
                       fix['subject'], who.name.split()[0]))
        mid = make_msgid(ts, self.next_serial(), who.email.split('@')[1])
        hs = [('From', addr_header(who)), ('To', stable.addr),
              ('Cc', 'linux-kernel@vger.kernel.org, stable@vger.kernel.org'),
              ('Subject', subj), ('Date', rfc2822_date(ts, who.tz)),
              ('Message-Id', mid), ('In-Reply-To', parent.msgid),
              ('References', cover.msgid if parent is cover
               else cover.msgid + '\n ' + parent.msgid)]
        m = Mail(hs, body)
        m.ts = ts
        return m

    # --- expected findings ------------------------------------------------
    def declared(self, p):
        s = self.s
        out = []
        for kind, name, extra in p['expect']:
            f = {'kind': kind,
                 'commit': (s.by_name[name]['id'] if name in s.by_name
                            else name)}
            for k, v in sorted(extra.items()):
                if k in ('via', 'stable_id'):
                    v = s.by_name[v]['id']
                elif k == 'mail':
                    v = self.lists_by_key[v].msgid
                f[k] = v
            out.append(f)
        return out

    def reference_review(self, th, patches):
        """The findings rules of maildirs/README.md, applied to the parsed
        patch text.  Returns [(findings, upstream ids)] per patch."""
        s = self.s
        tip = s.tag(th['base'])['target']
        in_tree = s.ancestors(tip)

        def in_branch(c):
            if c['id'] in in_tree:
                return c
            for x in s.commits:
                if (x['id'] in in_tree and x['branch'] == th['branch']
                        and c['id'] in x['upstream']):
                    return x
            return None

        def reverts_of(x):
            return [s.by_id[f] for f in x['fixed_by']
                    if s.by_id[f]['branch'] == 'mainline'
                    and x['id'] in s.by_id[f]['reverts']]

        def revert_chain(r):
            # R1 reverts U, R2 reverts R1, ...: an even chain applies U again.
            chain = [r]
            while reverts_of(chain[-1]):
                chain.append(reverts_of(chain[-1])[0])
            return chain

        def stable_reverts(c):
            return [s.by_id[f] for f in c['fixed_by']
                    if s.by_id[f]['kind'] == 'stable-revert'
                    and s.by_id[f]['branch'] != th['branch']]

        parsed = [parse_changelog(p['changelog']) for p in patches]
        series = {}
        for p, pp in zip(patches, parsed):
            for u in pp['upstream']:
                r = s.resolve(u)
                if r:
                    series.setdefault(r, p['index'])

        def fixers(c):
            return [s.by_id[f] for f in c['fixed_by']
                    if s.by_id[f]['branch'] == 'mainline']

        def pending_fix(m, uc):
            # A patch mail of no stable series (no version, not a reply)
            # naming UC in a Fixes: tag (8 hex or more) or a revert line,
            # whose title no mainline commit has.
            hm = re.match(r'\[PATCH[^\]0-9]*\]\s*(.*)', m.subject)
            if not hm or any(c['subject'] == hm.group(1) for c in s.commits
                             if c['branch'] == 'mainline'):
                return False
            ids = re.findall(r'^(?:Fixes:|This reverts commit)\s+([0-9a-f]{8,40})',
                             m.body, re.M)
            return any(uc['id'].startswith(i) for i in ids)

        def by_subject(subj):
            hits = [c for c in s.commits
                    if c['branch'] == 'mainline' and c['subject'] == subj]
            return hits[0] if len(hits) == 1 else None

        out = []
        for p, pp in zip(patches, parsed):
            f = []
            ups = []
            if not pp['upstream']:
                rv = [s.by_id.get(s.resolve(r) or '') for r in pp['reverts']]
                if not (rv and all(x and in_branch(x) for x in rv)):
                    f.append({'kind': 'no-upstream', 'commit': None})
            for u in pp['upstream']:
                r = s.resolve(u)
                ups.append(r or u)
                if r is None:
                    f.append({'kind': 'unknown-upstream', 'commit': u})
                    continue
                uc = s.by_id[r]
                if series.get(r, p['index']) < p['index']:
                    f.append({'kind': 'duplicate-in-series', 'commit': r,
                              'index': series[r]})
                b = in_branch(uc)
                if b:
                    f.append({'kind': 'already-applied', 'commit': b['id'],
                              'release': b['release']})
                    continue
                seen = {uc['id']}
                frontier = [uc]
                while frontier:
                    x = frontier.pop(0)
                    for fx in fixers(x):
                        if fx['id'] in seen:
                            continue
                        seen.add(fx['id'])
                        via = {} if x is uc else {'via': x['id']}
                        if x is uc and uc['id'] in fx['reverts']:
                            chain = revert_chain(fx)
                            seen.update(c['id'] for c in chain)
                            if len(chain) % 2 == 0:
                                f.append({'kind': 'reverted-upstream',
                                          'commit': fx['id'],
                                          'cause': 'revert-of-revert'})
                            else:
                                f.append({'kind': 'reverted-upstream',
                                          'commit': chain[-1]['id']})
                            continue
                        b = in_branch(fx)
                        if b:
                            f.append(dict({'kind': 'fix-present',
                                           'commit': fx['id'],
                                           'release': b['release'],
                                           'stable_id': b['id']}, **via))
                            continue
                        if fx['id'] in series:
                            f.append(dict({'kind': 'fix-queued',
                                           'commit': fx['id'],
                                           'index': series[fx['id']]}, **via))
                        elif tip['state'].get(fx['file']) is None:
                            # every file it changes is absent from the branch
                            f.append(dict({'kind': 'fix-not-applicable',
                                           'commit': fx['id']}, **via))
                        else:
                            f.append(dict({'kind': 'fix-missing',
                                           'commit': fx['id']}, **via))
                        frontier.append(fx)
                for x in stable_reverts(uc):
                    f.append({'kind': 'reverted-in-stable', 'commit': x['id']})
                # a name the backport uses that only a commit the branch
                # lacks brings, not queued before it
                for n in uc['needs']:
                    x = s.by_name[n]
                    if not in_branch(x) and series.get(x['id'], p['index']) >= p['index']:
                        f.append({'kind': 'symbol-missing', 'commit': x['id']})
                for m in self.mails['lists']:
                    body = m.body
                    if ((uc['id'][:12] in body or uc['subject'] in body)
                            and re.search(r'regression|bisect|first bad commit'
                                          r'|revert', body, re.I)):
                        f.append({'kind': 'regression-report',
                                  'commit': uc['id'], 'mail': m.msgid})
                    if pending_fix(m, uc):
                        f.append({'kind': 'fix-pending', 'commit': None,
                                  'mail': m.msgid})
            for h, subj in pp['fixes']:
                r = s.resolve(h)
                if r is None:
                    continue
                x = s.by_id[r]
                target = x
                if x['branch'] != 'mainline':
                    target = (by_subject(subj) if subj
                              else s.by_id[x['upstream'][0]])
                    f.append({'kind': 'fixes-tag-mismatch',
                              'commit': target['id'],
                              'note': 'names the %s id %s'
                                      % (x['branch'], x['name'])})
                elif subj is not None and subj != x['subject']:
                    target = by_subject(subj)
                    f.append({'kind': 'fixes-tag-mismatch',
                              'commit': target['id']})
                if not in_branch(target) and target['id'] not in series:
                    f.append({'kind': 'target-absent', 'commit': target['id']})
            for h in pp['prereqs'] + pp['depof']:
                x = s.by_id[s.resolve(h)]
                if not in_branch(x) and x['id'] not in series:
                    f.append({'kind': 'dep-missing', 'commit': x['id']})
            for r in ups:
                if s.by_id.get(r) and series_partial(s, s.by_id[r], in_branch, series):
                    f.append({'kind': 'series-partial', 'commit': r})
            # a diff that is not upstream's, and no word of it in the
            # changelog (a backporter's "[ ... ]" note documents it)
            if (p['spec'].get('diff') == 'extra' and len(ups) == 1
                    and not re.search(r'^\[ ?\w+:', p['changelog'], re.M)):
                f.append({'kind': 'backport-differs', 'commit': ups[0]})
            out.append((f, ups))
        return out


SERIES_ID_RE = re.compile(
    r'^Link: https?://(?:lore\.kernel\.org|lkml\.kernel\.org|patch\.msgid\.link'
    r'|msgid\.link)/(?:[^/\s]+/)?(\d{14}\.\d+-)(\d+)(-[^/\s]+@[^/\s]+?)/?$', re.M)


def series_key(c):
    """The series key and part of the git send-email posting mainline
    commit C's last Link: names, or None (the sample uses no other form)."""
    hits = SERIES_ID_RE.findall(c.get('msg', ''))
    if not hits or c['branch'] != 'mainline' or c['upstream']:
        return None
    a, n, b = hits[-1]
    return (a + '*' + b, int(n)) if int(n) > 0 else None


def series_partial(s, uc, in_branch, series):
    """series-partial: other parts of UC's posting in mainline, neither
    in the branch nor in the series."""
    key = series_key(uc)
    if not key:
        return False
    for c in s.commits:
        k = series_key(c)
        if (k and k[0] == key[0] and k[1] != key[1] and not in_branch(c)
                and c['id'] not in series):
            return True
    return False


def answers_json(s):
    t = Threads(s)
    commits = []
    for c in s.commits:
        commits.append(dict(
            name=c['name'], id=c['id'], subject=c['subject'],
            branch=c['branch'], release=c['release'],
            parents=[p['id'] for p in c['parents']],
            upstream=c['upstream'], fixes=c['fixes'],
            fixes_resolved=c['fixes_resolved'], reverts=c['reverts'],
            fixed_by=c['fixed_by'], backports=c['backports']))
    threads = {}
    for name, r in t.review.items():
        th = r['th']
        tip = s.tag(th['base'])['target']
        threads[name] = dict(
            maildir='maildirs/' + name, branch=th['branch'], base=th['base'],
            base_id=tip['id'], version=th['version'],
            cover=r['cover'].msgid if r['cover'] else None,
            patches=[dict(index=p['index'], message_id=p['mail'].msgid,
                          subject=p['subject'],
                          upstream=p['upstreams'][0] if p['upstreams'] else None,
                          upstreams=p['upstreams'],
                          expected=p['expected'])
                     for p in r['patches']])
    doc = dict(
        format=1,
        generator='scripts/gen-kernel.py sample',
        refs={'mainline': 'refs/heads/master',
              'linux-4.4.y': 'refs/heads/linux-4.4.y',
              'linux-4.5.y': 'refs/heads/linux-4.5.y'},
        branches={k: s.heads[v]['id'] for k, v in
                  (('mainline', 'master'), ('linux-4.4.y', 'linux-4.4.y'),
                   ('linux-4.5.y', 'linux-4.5.y'))},
        tags=[dict(name=x['tag'], commit=x['target']['id'],
                   tag_object=x['id'], annotated=x['annotated'])
              for x in s.tags],
        unknown_upstream=UNKNOWN_UPSTREAM,
        commits=commits,
        thread=[dict(index=p['index'], upstream=p['upstream'],
                     expected=p['expected'])
                for p in threads['review-4.4']['patches']],
        threads=threads,
        lists=[dict(key=m.key, message_id=m.msgid, subject=m.subject)
               for m in t.mails['lists']])
    return json.dumps(doc, indent=1, ensure_ascii=False, sort_keys=False) + '\n'


# --------------------------------------------------------------------------
# maildir output

MAILDIR_README_HEAD = '''\
# Sample mail for fixscan

Generated by `scripts/gen-kernel.py maildir REPO maildirs` from the same
spec as the sample kernel repository (`scripts/gen-kernel.py sample DIR`);
do not edit the files by hand.  `tests/e2e/t0050-gen-kernel.sh` regenerates
everything here and fails on any byte of difference.  Every commit id below
is an id of the sample repository, which is deterministic (fixed names,
dates and contents), so the ids are stable.

Each directory is a maildir.  Git does not keep empty directories, so
`new/` and `tmp/` are missing from a checkout; `make demo` and the tests
create them in their copies.  Create them (`mkdir -p
maildirs/review-4.4/new maildirs/review-4.4/tmp`) before pointing a mail
tool at one here (mutt shows "(no mailbox)" without them), or regenerate
with the script, which writes all three.

The machine-readable version of everything in this file, and much more, is
`answers.json`, written into the sample repository by `gen-kernel.py
sample`.  Write tests against answers.json rather than against the ids
copied here.

| maildir | what it is |
| --- | --- |
| `review-4.4/` | the 4.4.7-rc1 stable review: cover letter `[PATCH 4.4 00/@N44@] 4.4.7-stable review` (X-stable/X-KernelTest-* headers, deadline, branch line, Pseudo-Shortlog, diffstat), @N44@ patches in reply to it, and @R44@ reviewer replies.  Base: `v4.4.6`, the tip of `linux-4.4.y`. |
| `review-4.5/` | an AUTOSEL-style series `[PATCH AUTOSEL 4.5 NN/@N45@]` with no cover letter: patches 02..@N45@ reply to patch 01.  `git format-patch` style diffs.  Base: `v4.5.3`, the tip of `linux-4.5.y`. |
| `lists/` | @NLISTS@ plain linux-kernel list mails, not part of any review thread: two regression reports, one harmless mention of a commit and one posted fix that mainline does not have yet. |

## The sample repository

`refs/heads/master` (mainline): tags `v4.3`, `v4.4-rc1`..`v4.4-rc3`,
`v4.4`, `v4.5-rc1`, `v4.5-rc2`, `v4.5`, `v4.6-rc1`, `v4.6-rc2`, `v4.6`,
`v4.7-rc1`, `v4.7-rc2`, `v4.7`, then @NPOST@ untagged commits.  One merge
(`merge1`, in `v4.5-rc1`) brings in a topic branch forked at `v4.4`.
`refs/heads/linux-4.4.y` forks at `v4.4` with `v4.4.1`..`v4.4.6`;
`refs/heads/linux-4.5.y` forks at `v4.5` with `v4.5.1`..`v4.5.3` and
@N45POST@ untagged commits after it.  Every
release is a "Linux X" commit changing only the Makefile; annotated and
lightweight tags are mixed (see answers.json `tags`).  Each other commit
changes one file.

Planted in the repository itself (names as in the table at the end):

* upstream lines in every form across the linux-4.4.y commits:
  `commit <id> upstream.` (s_d1a), `Commit <id> upstream.` (s_d1b),
  `commit <id> upstream` without the dot (s_dup, s_f3), `[ Upstream
  commit <id> ]` (s_f1), `Upstream commit <id>` (s_x) and with a dot
  (s_f2), `(cherry picked from commit <id>)` (s_fp) and two of them in
  one commit (s_cp: m_cpa and m_cpb);
* a duplicate backport (m_d1 as s_d1a in v4.4.1 and s_d1b in v4.4.3) and
  its seed-001 style revert `Revert: "..."` / `This reverts commit <s_d1b>
  which was` / `commit <m_d1> upstream.` (s_d1_revert, v4.4.5);
* `Stable-dep-of:` (s_dep names m_needs; both in v4.4.5);
* m_both backported to both stable branches;
* Fixes: abbreviations of 8 (u_ta), 10 (c3), 12 (most), 16 (f_fp, no
  subject) and 40 (f_ch2) hex; `Fixes: commit <id> ("...")` (f_fq); two
  Fixes: lines (u_clean2, b3); a subject wrapped onto the next line
  (f_ch1); a hash that does not match its quoted subject (u_mm); a stable
  id (u_st names s_x);
* chains: u_ch <- f_ch1 <- f_ch2 and a3 <- b3 <- c3 <- d3; a mainline
  revert (r_rv of u_rv);
* oops dumps with `RIP:`, register and `Code:` lines (b_rc2, u_clean1; one
  register value of u_clean1 is the first 16 hex of b_tcp_old), `Link:`
  lines (u_fm, post1), and `Cc: stable` in the forms `stable@...`,
  `<stable@...>`, `# 4.4.x`, `# v4.4+`, `# 3.10+`, `# 4.4.x: <id>:
  prerequisite` (u_dm, u_prq_series) and `# 4.4.x: <id>: <subject>`
  (u_prq_base).

## answers.json

* `commits[]`: every commit, in creation order: `name` (the symbolic name
  used here), `id`, `subject`, `branch` (`mainline`, `linux-4.4.y`,
  `linux-4.5.y`), `parents`, `release` (the first tag in version order
  whose commit contains it: `v4.4-rc1` < `v4.4` < `v4.4.1` < `v4.5-rc1`;
  null when no tag contains it), `upstream` (the 40-hex ids named by its
  upstream lines; the `commit X upstream.` continuation of a stable
  revert's "This reverts commit S which was" line names the reverted
  commit's upstream and is *not* counted), `fixes` (the Fixes: ids exactly
  as written, abbreviated), `fixes_resolved` (the same resolved by hash to
  40 hex, never by subject), `reverts` (40-hex ids of `This reverts commit`
  lines), `fixed_by` (ids of every commit, mainline or stable, whose
  Fixes: hash or revert line names this commit, or, for a mainline commit,
  names one of its backports; stable backports count because they copy
  the Fixes: tags of their upstream), `backports` (branch -> list of
  `{id, release}` of the stable commits whose upstream lines name it).
* `tags[]`: `name`, `commit` (the commit it points to), `tag_object` (the
  annotated tag's id, null for a lightweight tag), `annotated`.
* `thread[]`: the review-4.4 patches as `{index, upstream, expected}`;
  `threads` has both threads with the cover Message-Id, each patch's
  Message-Id, subject, `upstreams` (all ids named, in order) and
  `expected`.
* `expected[]`: `{kind, commit}` plus, depending on the kind, `index`
  (fix-queued: the NN of the queued fix), `release` and `stable_id`
  (fix-present: the release and id of the backport in the branch;
  already-applied: `release` of `commit`), `via` (a fix of a fix: the
  commit it fixes), `mail` (regression-report, fix-pending: the
  Message-Id of the list mail), `note` (free text).  The order of
  findings is not significant.

## The rules the expected findings follow

The script computes the expected findings with a small reference review
and checks them against the planted cases listed below, so the two can not
drift apart.

* In the branch: an ancestor of the base tag, or named by the upstream
  line of a stable commit of the branch reachable from the base.
* In the series: named by the upstream line of any patch of the thread.
* No upstream line: `no-upstream`, unless the patch only reverts commits
  that are in the branch (a stable revert, patch 18).  An upstream id that
  resolves to no commit: `unknown-upstream` with `commit` = the id named.
* Upstream in the branch: `already-applied` (`commit` = the stable commit,
  or the upstream itself when it is an ancestor of the base); no further
  checks for that upstream.
* Fixers of X: the mainline commits whose Fixes: hash or revert line names
  X or a backport of X.  For each fixer F of the patch's upstream U:
  a revert of U is `reverted-upstream` (not also fix-missing); F in the
  branch is `fix-present` (not followed further); F in the series is
  `fix-queued` and F in neither is `fix-missing`, and both are followed:
  the fixers of F are reported the same way with `via` = F.
* Each Fixes: tag of the patch: resolved by hash; when that is a stable
  commit, or the quoted subject differs from the commit's subject
  (after unwrapping), it is `fixes-tag-mismatch` with `commit` = the
  mainline commit the subject names.  The target (so resolved) neither in
  the branch nor in the series is `target-absent`.
* Each prerequisite (`Cc: stable@vger.kernel.org # 4.4.x: <id>: ...`) and
  each `Stable-dep-of: <id>`, neither in the branch nor in the series:
  `dep-missing`.
* `fix-pending`: a mail of `lists/` that is a patch of no stable series
  (a `[PATCH]` subject without a version, not a reply) whose body has a
  line `Fixes: <id>` or `This reverts commit <id>`, the id 8 hex or more
  and a prefix of the upstream's, and whose title no mainline commit has;
  `commit` is null, `mail` its Message-Id.
* `regression-report`: a mail of `lists/` whose body contains the
  upstream's first 12 hex or its exact subject, and matches
  `regression|bisect|first bad commit|revert` (case-insensitive).
* A fixer F all of whose files the base's tree lacks (the sample's
  commits change one file each) is `fix-not-applicable` rather than
  `fix-missing`: nothing to ask for (review-4.5 07).
* `symbol-missing`: the upstream's diff uses a name that only a mainline
  commit neither in the branch nor queued before the patch brings (the
  commit the spec's `needs` names); `commit` = that commit (review-4.5
  06: hub_port_settle_ms(), which u_settle_base adds in a header of its
  own).
'''


def readme(s, t):
    # The counts from the spec itself, so the text cannot drift from it.
    words = {1: 'one', 2: 'two', 3: 'three', 4: 'four', 5: 'five', 6: 'six', 7: 'seven',
             8: 'eight', 9: 'nine'}

    def untagged(branch):
        n = sum(1 for c in s.commits if c['branch'] == branch and c['release'] is None)
        return words.get(n, str(n))
    head = MAILDIR_README_HEAD
    for key, value in (('@N44@', '%02d' % len(REVIEW44['patches'])),
                       ('@R44@', str(len(REVIEW44['replies']))),
                       ('@N45@', '%02d' % len(REVIEW45['patches'])),
                       ('@NLISTS@', words.get(len(LISTS), str(len(LISTS)))),
                       ('@NPOST@', untagged('mainline')),
                       ('@N45POST@', untagged('linux-4.5.y'))):
        head = head.replace(key, value)
    out = [head]
    nm = {c['id']: c['name'] for c in s.commits}

    def ref(i):
        if i is None:
            return '-'
        return '`%s` %s' % (i[:12], nm.get(i, '(not in repo)'))

    for name, r in t.review.items():
        th = r['th']
        out.append('\n## %s: planted cases\n\n' % name)
        out.append('Branch `%s`, base `%s` (%s).\n\n'
                   % (th['branch'], th['base'], s.tag(th['base'])['target']['id']))
        out.append('| NN | upstream | expected | what |\n| --- | --- | --- | --- |\n')
        for p in r['patches']:
            ups = ', '.join(ref(u) for u in p['upstreams']) or '-'
            exp = []
            for f in p['expected']:
                e = '%s %s' % (f['kind'], ref(f['commit']) if f['commit']
                               else '')
                if 'index' in f:
                    e += ' (queued as %02d)' % f['index']
                if 'release' in f:
                    e += ' (%s)' % f['release']
                if 'via' in f:
                    e += ' via `%s`' % f['via'][:12]
                if 'mail' in f:
                    e += ' mail %s' % f['mail'].replace('<', '').replace('>', '')
                exp.append(e.strip())
            out.append('| %02d | %s | %s | %s |\n' % (
                p['index'], ups, '; '.join(exp) or 'none (clean)',
                p['spec']['note'].replace('|', '/')))
        if r['th']['replies']:
            out.append('\nReplies: a Tested-by to the cover (it quotes the '
                       'cover\'s first paragraph), "please drop this, it '
                       'breaks the build on arm" on 07, and "this needs '
                       'commit <12hex> as well" (the missing fix) on 03.\n')
    out.append('\n## lists\n\n| key | Message-Id | subject |\n| --- | --- | --- |\n')
    for m in t.mails['lists']:
        out.append('| %s | `%s` | %s |\n' % (m.key, m.msgid,
                                            m.subject.replace('|', '/')))
    out.append('\nL1 names review-4.4 patch 13\'s upstream by its 12-hex id '
               '("bisected", "first bad commit"); L2 quotes patch 14\'s '
               'upstream subject next to "regression"; L3 names patch 01\'s '
               'upstream id without reporting any problem (must not be a '
               'finding); L4 is a patch posted to the list whose Fixes: tag '
               'names patch 24\'s upstream, not in mainline (fix-pending).\n')
    out.append('\n## Key commits of the sample repository\n\n'
               '| name | id | branch | release | subject |\n'
               '| --- | --- | --- | --- | --- |\n')
    for c in s.commits:
        if c['release_commit']:
            continue
        out.append('| %s | `%s` | %s | %s | %s |\n' % (
            c['name'], c['id'][:12], c['branch'], c['release'] or '-',
            c['subject'].replace('|', '/')))
    return ''.join(out)


def check_repo(repo, s):
    """REPO must hold every commit of the spec."""
    want = '\n'.join(c['id'] for c in s.commits) + '\n'
    r = subprocess.run(['git', '-C', repo, 'cat-file', '--batch-check'],
                       input=want.encode(), stdout=subprocess.PIPE, check=True)
    missing = [l for l in r.stdout.decode().splitlines() if 'missing' in l]
    if missing:
        die("'%s' is not the sample repository (%d commits missing, e.g. %s)"
            % (repo, len(missing), missing[0].split()[0]))


def write_maildir(path, mails):
    for sub in ('cur', 'new', 'tmp'):
        os.makedirs(os.path.join(path, sub), exist_ok=True)
    for n, m in enumerate(mails, 1):
        fn = '%d.%06d.fixscan:2,S' % (m.ts, n)
        with open(os.path.join(path, 'cur', fn), 'wb') as f:
            f.write(m.render())


def cmd_maildir(args):
    s = Sample()
    check_repo(args.repo, s)
    t = Threads(s)
    if args.only:
        if args.only not in t.mails:
            die("no maildir '%s' (have: %s)" % (args.only, ', '.join(t.mails)))
        write_maildir(args.outdir, t.mails[args.only])
        return
    for name, mails in t.mails.items():
        write_maildir(os.path.join(args.outdir, name), mails)
    with open(os.path.join(args.outdir, 'README.md'), 'w',
              encoding='utf-8') as f:
        f.write(readme(s, t))


# --------------------------------------------------------------------------
# scale: a big history, streamed
#
# Mainline commit number i (0-based, in creation order, merges and release
# commits included) has a subject that is a pure function of i (and, for a
# revert, of the commit it reverts), so a Fixes: tag can quote the subject
# of any earlier commit without keeping subjects in memory.  The ids of all
# commits are kept in one bytearray (20 bytes each).  Message bodies are
# not kept, except for the last few thousand, which stable backports copy.

MASK64 = (1 << 64) - 1


def mix64(x):
    """splitmix64's finalizer: a well-spread 64-bit hash of an integer."""
    x = (x + 0x9e3779b97f4a7c15) & MASK64
    x = ((x ^ (x >> 30)) * 0xbf58476d1ce4e5b9) & MASK64
    x = ((x ^ (x >> 27)) * 0x94d049bb133111eb) & MASK64
    return x ^ (x >> 31)


class Lcg:
    """A 64-bit LCG; deterministic everywhere, fast enough in Python."""

    def __init__(self, seed):
        self.x = mix64(seed)

    def next(self):
        self.x = (self.x * 6364136223846793005 + 1442695040888963407) & MASK64
        return self.x >> 16

    def below(self, n):
        return self.next() % n

    def frac(self):
        return (self.next() & 0xffffffffffff) / float(1 << 48)


# The sample's files, but those only its late commits add.
SCALE_FILES = [p for k, p in FILES.items() if k not in LATE_FILES]
# With --files: the header one late mainline commit adds (bit LATE_BIT of
# a tree's bits), and that commit's subject (bench-thread.py looks for it).
LATE_FILE = 'kernel/sched/fixscan_late.h'
LATE_BIT = len(SCALE_FILES)
LATE_SUBJECT = 'sched: add fixscan_late_helper()'
LATE_BLOB = (b'/* SPDX-License-Identifier: GPL-2.0 */\n'
             b'#ifndef _LINUX_FIXSCAN_LATE_H\n#define _LINUX_FIXSCAN_LATE_H\n\n'
             b'#define FIXSCAN_LATE_LEVEL\t3\n\n'
             b'static inline int fixscan_late_helper(int level)\n{\n'
             b'\treturn level > FIXSCAN_LATE_LEVEL;\n}\n\n#endif\n')


def scale_blob(path, rev, kernel):
    """A file of the scale history at revision REV (0 or 1).  In a tree of
    kernel shape (KERNEL) revision 1 also has a function of the core API's
    names (scripts/kernel_shape.py): what a backport of it adds uses names
    the tree has."""
    b = source_blob(path, rev)
    if not (kernel and rev):
        return b
    ident = re.sub(r'[^a-z0-9]+', '_', path.rsplit('/', 1)[-1].rsplit('.', 1)[0])
    return b + ('\nstatic int fixscan_%s_rework(struct slab_core *c)\n{\n'
                '\tvoid *p = kzalloc(64, GFP_KERNEL);\n\n'
                '\tif (!p)\n\t\treturn -ENOMEM;\n'
                '\tmutex_lock(&c->lock);\n\tc->slab_state = BITS_PER_LONG;\n'
                '\tmutex_unlock(&c->lock);\n\tkfree(p);\n\treturn 0;\n}\n'
                % ident).encode()
SCALE_PREFIXES = {
    'arch/x86/mm/tlb.c': ['x86/mm', 'x86/tlb', 'x86/pat', 'x86/mm/pti', 'x86/ioremap'],
    'arch/x86/kernel/process.c': ['x86/process', 'x86/fpu', 'x86/entry', 'x86/cpu', 'x86/speculation', 'x86/apic'],
    'arch/arm64/mm/fault.c': ['arm64: mm', 'arm64: kvm', 'arm64: entry', 'arm64: cpufeature', 'arm64: dts'],
    'arch/powerpc/kernel/process.c': ['powerpc/tm', 'powerpc/64s', 'powerpc/pseries', 'powerpc/mm', 'powerpc/eeh'],
    'net/ipv4/tcp.c': ['tcp', 'net: ipv4', 'ipv6', 'inet', 'net: sched', 'udp', 'mptcp'],
    'net/netfilter/x_tables.c': ['netfilter: x_tables', 'netfilter: nf_tables', 'netfilter: conntrack', 'netfilter: ipset'],
    'block/bio.c': ['block', 'blk-mq', 'bcache', 'nvme', 'dm', 'md/raid5'],
    'drivers/pci/probe.c': ['PCI', 'PCI: hotplug', 'PCI/AER', 'PCI: dwc', 'PCI/ASPM'],
    'drivers/media/v4l2-core/videobuf2-v4l2.c': ['media: vb2', 'media: v4l2-core', 'media: uvcvideo', 'media: rc', 'media: dvb-core'],
    'drivers/regulator/core.c': ['regulator: core', 'regulator: qcom', 'mfd: core', 'gpio: core', 'pinctrl: core'],
    'drivers/usb/core/hub.c': ['usb: hub', 'usb: xhci', 'usb: gadget', 'usb: dwc3', 'USB: serial', 'usb: typec'],
    'drivers/iio/adc/ti-ads1015.c': ['iio: adc', 'iio: imu', 'hwmon', 'thermal', 'power: supply'],
    'drivers/gpu/drm/i915/intel_display.c': ['drm/i915', 'drm/amdgpu', 'drm/nouveau', 'drm/msm', 'drm: bridge', 'drm/vc4'],
    'fs/ext4/inode.c': ['ext4', 'btrfs', 'xfs', 'f2fs', 'nfs', 'fuse', 'ovl', 'cifs'],
    'mm/page_alloc.c': ['mm', 'mm/page_alloc', 'mm/slub', 'mm/memcg', 'mm/hugetlb', 'mm/vmscan'],
    'kernel/sched/fair.c': ['sched/fair', 'sched/core', 'sched/deadline', 'locking/rwsem', 'rcu', 'timers', 'workqueue'],
    'sound/core/pcm_native.c': ['ALSA: pcm', 'ALSA: hda', 'ALSA: usb-audio', 'ASoC: core', 'ASoC: soc-pcm'],
}
W_FN1 = ('dev', 'queue', 'page', 'buf', 'ctx', 'port', 'skb', 'req', 'cpu', 'irq',
         'map', 'node', 'zone', 'task', 'conn', 'chan', 'sock', 'inode', 'bio',
         'pte', 'vma', 'link', 'pipe', 'ring', 'crtc', 'plane', 'stream', 'hw')
W_FN2 = ('alloc', 'free', 'init', 'exit', 'probe', 'remove', 'flush', 'update',
         'check', 'get', 'put', 'attach', 'detach', 'release', 'open', 'close',
         'read', 'write', 'scan', 'split', 'merge', 'reset', 'resume', 'suspend',
         'enable', 'disable', 'setup', 'teardown', 'map', 'unmap', 'submit',
         'complete', 'wait', 'wake', 'lookup', 'insert')
W_FN3 = ('', '_one', '_range', '_locked', '_work', '_common', '_entry', '_state',
         '_cb', '_irq', '_async', '_slow', '_fast', '_nowait', '_all', '_list')
W_OBJ = ('the reference count', 'the error path', 'the lock ordering', 'a NULL pointer',
         'the return value', 'the length check', 'the bounds check', 'the timeout',
         'the retry loop', 'the cleanup path', 'the state machine', 'the refcount',
         'the free list', 'the work item', 'the reset sequence', 'the DMA mapping',
         'the page count', 'the statistics', 'the debug message', 'the sysfs entry',
         'the module parameter', 'the fast path', 'the slow path', 'the hot path',
         'the shutdown path', 'the resume path', 'the probe order', 'the IRQ handler',
         'the completion', 'the memory barrier', 'the overflow check', 'the alignment',
         'the locking', 'the accounting', 'the tracepoint', 'the quirk table',
         'the firmware version check', 'the ioctl handler', 'the compat path',
         'the per-cpu counter', 'the RCU read side', 'the spinlock', 'the mutex')
W_TPL = ('fix {o} in {f}()', 'avoid a use-after-free in {f}()',
         'fix a memory leak in {f}()', 'do not leak {o} in {f}()',
         'check {o} in {f}()', 'handle errors from {f}()',
         'fix a race between {f}() and {g}()', 'use {g}() in {f}()',
         'remove a redundant check from {f}()', 'move {o} out of {f}()',
         'fix a NULL dereference in {f}()', 'add the missing barrier to {f}()',
         'clean up {o} of {f}()', 'simplify {f}()', 'fix a deadlock in {f}()',
         'fix {o} for large values in {f}()', 'restore {o} after {f}()',
         'annotate a data race in {f}()', 'rework {o} in {f}()',
         'fix an off-by-one in {f}()', 'take the lock in {f}()',
         'initialise {o} before {f}()', 'document {o} of {f}()',
         'drop {o} from {f}()', 'convert {f}() to use {g}()',
         'fix a refcount leak in {f}()', 'make {f}() static',
         'fix a warning in {f}()', 'propagate errors from {g}() in {f}()')
W_SENT = (
    '{F}() can be called while {o} is still being set up, and then it works on a half-initialised object.',
    'The caller of {f}() assumes that {o} has been taken care of, which is not true when {g}() fails.',
    'When {g}() returns an error, {f}() bails out without undoing {o}, and the next call trips over it.',
    'This was found with a fuzzer that calls {f}() and {g}() in a tight loop from two threads.',
    'On machines with many CPUs the problem shows up within minutes; on small ones it may take days.',
    'There is no reason to do this under the lock, and doing so makes {g}() wait for no benefit.',
    'Rework {o} so that it is done once, before the object becomes visible to other CPUs.',
    'The value is read twice without a barrier, so the compiler is free to use two different loads.',
    'Use the helper instead of open-coding the same sequence in three places.',
    'Keep the behaviour for existing users; only the failure case changes.',
    'The bug has been there since the code was introduced, but a recent change made it easy to hit.',
    'Return the error to the caller instead of silently ignoring it.',
    'Tested on real hardware as well as in a virtual machine with the same topology.',
    'No functional change is intended for the common case.',
    'The check in {f}() compares against the wrong limit, letting a crafted value through.',
    'Without this, {g}() may sleep while holding a spinlock, which lockdep reports as shown below.',
    'Callers that pass a zero length end up with a buffer one byte too short.',
    'This matches what {g}() already does and what the documentation describes.',
    'Holding the reference until {g}() completes closes the window in which the object can be freed.',
    'Noticed while reviewing {o}; the same pattern exists in two other drivers, which are fixed separately.',
    'A previous attempt at fixing this moved the check, but left the second caller unprotected.',
    'Split the function so that the locked and the unlocked variant can share the common part.',
    'The counter wraps after a few weeks of uptime on busy systems, and the comparison then goes the wrong way.',
    'Make the error message say which device failed, as there may be several.',
)
W_FIRST = ('Alex', 'Anna', 'Bogdan', 'Carla', 'Chen', 'Daniel', 'Deepa', 'Emil',
           'Fatima', 'Felix', 'Greta', 'Hiro', 'Ilse', 'Ivan', 'Jana', 'Jonas',
           'Karim', 'Lea', 'Luis', 'Maja', 'Marek', 'Nina', 'Omar', 'Paula',
           'Pedro', 'Quentin', 'Rosa', 'Sven', 'Tariq', 'Ute', 'Vera', 'Wen',
           'Xavier', 'Yuki', 'Zofia', 'J\u00f6rg', 'Ren\u00e9e', '\u0141ukasz',
           'Ana\u00efs', 'S\u00f8ren')
W_LAST = ('Andersen', 'Baker', 'Costa', 'Dalton', 'Eriksen', 'Fischer', 'Garcia',
          'Horvat', 'Ishikawa', 'Jansen', 'Kowalski', 'Lambert', 'Moreau',
          'Nakamura', 'Okafor', 'Petrov', 'Quinn', 'Rossi', 'Schulz', 'Tanaka',
          'Urban', 'Varga', 'Weber', 'Xu', 'Yilmaz', 'Zimmer', 'M\u00fcller',
          'Nov\u00e1k', 'Gonz\u00e1lez', 'Sj\u00f6berg')
W_TZ = ('+0000', '+0100', '+0200', '+0300', '+0530', '+0800', '+0900', '-0400',
        '-0500', '-0700', '-0800')

LTS = ((4, 4), (4, 9), (4, 14), (4, 19), (5, 4), (5, 10), (5, 15), (6, 1),
       (6, 6), (6, 12))
SCALE_T0 = 1309478400       # 2011-07-01
SCALE_T1 = 1735689600       # 2025-01-01
STATE_FILE = 'gen-kernel-scale.json'
# The static tree's blob marks: above every commit's.
STATIC_MARK0 = 50000000
IDS_FILE = 'gen-kernel-scale.ids'
KIND_FILE = 'gen-kernel-scale.kind'
NORMAL, REVERT, MERGE, RELEASE = 0, 1, 2, 3


def version_names():
    """v3.0..v3.19, v4.0..v4.20, v5.0..v5.19, v6.0.. (like the real tree)."""
    for maj, last in ((3, 19), (4, 20), (5, 19)):
        for mi in range(last + 1):
            yield (maj, mi)
    mi = 0
    while True:
        yield (6, mi)
        mi += 1


def wrap(text, width=72):
    out = []
    line = ''
    for w in text.split(' '):
        if line and len(line) + 1 + len(w) > width:
            out.append(line)
            line = w
        else:
            line = line + ' ' + w if line else w
    out.append(line)
    return '\n'.join(out)


class Scale:
    def __init__(self, seed, total, cycle_len, files=0):
        self.seed = seed
        self.files = files      # C files of kernel shape (0: none)
        self.static_top = {}    # top directory -> its static entries
        self.late_i = None      # the commit number of the late commit
        self.total = total
        self.L = cycle_len
        self.people = []
        r = Lcg(seed * 7 + 1)
        for a in W_FIRST:
            for b in W_LAST:
                name = '%s %s' % (a, b)
                user = re.sub(r'[^a-z]', '', (a[0] + b).lower()
                              .replace('\u00f6', 'o').replace('\u00fc', 'u')
                              .replace('\u00e1', 'a').replace('\u0142', 'l'))
                dom = ('example.com', 'example.org', 'example.net',
                       'corp.example.com', 'lab.example.org')[r.below(5)]
                self.people.append(('%s <%s@%s>' % (name, user, dom),
                                    W_TZ[r.below(len(W_TZ))]))
        self.maint = {}
        for k, f in enumerate(SCALE_FILES):
            self.maint[f] = [self.people[(k * 37 + j * 101) % len(self.people)]
                             for j in range(3)]
        self.top = ('Lena Torvik <lena@mainline.example.org>', '-0700')
        self.stable_maint = ('Greta Kroll <greta@stable.example.org>', '+0200')
        self.stable_maint2 = ('Sami Levant <sami@autosel.example.org>', '-0400')
        # Pre-wrapped paragraphs: bodies pick a few, so wrapping costs
        # nothing per commit.
        self.paras = []
        for n in range(6000):
            k = 2 + r.below(3)
            sents = []
            for _ in range(k):
                t = W_SENT[r.below(len(W_SENT))]
                f = self.fn(r.next())
                g = self.fn(r.next())
                o = W_OBJ[r.below(len(W_OBJ))]
                sents.append(t.replace('{F}', f).replace('{f}', f)
                             .replace('{g}', g).replace('{o}', o))
            self.paras.append(wrap('  '.join(sents)))
        # Trees: file bits per top-level directory, subtrees memoised.
        self.blobs = []
        for f in SCALE_FILES:
            self.blobs.append((git_hash(b'blob', scale_blob(f, 0, files)),
                               git_hash(b'blob', scale_blob(f, 1, files))))
        self.paths = list(SCALE_FILES)
        if files:
            # the late header: absent (None) before its commit
            self.blobs.append((None, git_hash(b'blob', LATE_BLOB)))
            self.paths.append(LATE_FILE)
        self.readme = git_hash(b'blob', README_BLOB)
        self.dirs = {}
        for k, f in enumerate(self.paths):
            self.dirs.setdefault(f.split('/')[0], []).append(k)
        self.dir_memo = {d: {} for d in self.dirs}
        self.tree_memo = {}
        self.root_order = None
        self.mk_memo = {}

    def set_static(self, top):
        """The static tree's entries per top directory: TOP maps a top
        directory to {name: (is_tree, sha20)}."""
        self.static_top = top
        for d in top:
            self.dir_memo.setdefault(d, {})
        names = [(b'Makefile', False), (b'README', False)] + [
            (d.encode(), True) for d in set(self.dirs) | set(top)]
        names.sort(key=lambda nt: nt[0] + (b'/' if nt[1] else b''))
        self.root_order = [(n.decode(), (b'40000 ' if t else b'100644 ') + n
                            + b'\0') for n, t in names]

    # --- words ------------------------------------------------------------
    @staticmethod
    def fn(h):
        return '%s_%s%s' % (W_FN1[h % len(W_FN1)], W_FN2[(h >> 8) % len(W_FN2)],
                            W_FN3[(h >> 16) % len(W_FN3)])

    def file_of(self, i):
        return mix64(i * 2 + 1) % len(SCALE_FILES)

    def subject(self, i, kinds, rtarget):
        if i == self.late_i:
            return LATE_SUBJECT
        k = kinds[i]
        if k == REVERT:
            return 'Revert "%s"' % self.subject(rtarget[i], kinds, rtarget)
        h = mix64(i * 2 + 1)
        f = SCALE_FILES[h % len(SCALE_FILES)]
        pre = SCALE_PREFIXES[f]
        h2 = mix64(h)
        pfx = pre[(h >> 8) % len(pre)]
        tpl = W_TPL[(h >> 16) % len(W_TPL)]
        pfn = pfx.split('/')[-1].split(': ')[-1].replace('-', '_').replace(' ', '_').lower()
        if pfn[0].isdigit():
            pfn = pfx.split('/')[0] + pfn
        fname = '%s_%s' % (pfn, self.fn(h2))
        gname = '%s_%s' % (pfn, self.fn(h2 >> 24))
        o = W_OBJ[(h >> 24) % len(W_OBJ)]
        return '%s: %s' % (pfx, tpl.format(f=fname, g=gname, o=o))

    # --- trees ------------------------------------------------------------
    def dir_sha(self, d, bits):
        mask = 0
        for k in self.dirs.get(d, ()):
            mask |= 1 << k
        key = bits & mask
        got = self.dir_memo[d].get(key)
        if got is None:
            files = {}
            for k in self.dirs.get(d, ()):
                sha = self.blobs[k][(bits >> k) & 1]
                if sha is not None:
                    files[self.paths[k].split('/', 1)[1]] = sha
            if d in self.static_top:
                # the static tree's second-level names are none of these
                # (kernel_shape.STATIC_AVOID)
                entries = dict(self.static_top[d])
                entries.update(tree_entries(files))
                got = git_hash(b'tree', tree_bytes(entries))
            else:
                got = tree_from_files(files)
            self.dir_memo[d][key] = got
        return got

    def tree(self, bits, mk):
        key = (bits, mk)
        got = self.tree_memo.get(key)
        if got is not None:
            return got
        if self.root_order is None:
            self.set_static(self.static_top)
        parts = []
        for name, prefix in self.root_order:
            if name == 'Makefile':
                sha = self.makefile(mk)[0]
            elif name == 'README':
                sha = self.readme
            else:
                sha = self.dir_sha(name, bits)
            parts.append(prefix + sha)
        got = git_hash(b'tree', b''.join(parts)).hex()
        if len(self.tree_memo) > 200000:
            self.tree_memo.clear()
        self.tree_memo[key] = got
        return got

    def makefile(self, mk):
        got = self.mk_memo.get(mk)
        if got is None:
            b = makefile_blob(mk)
            got = self.mk_memo[mk] = (git_hash(b'blob', b), b)
        return got

    # --- release schedule -------------------------------------------------
    def schedule(self, upto):
        """[(position, tag, (maj, min, sub, extra))] of mainline release
        commits at positions < UPTO (position = mainline commit number)."""
        out = []
        pos = 0
        for c, (maj, mi) in enumerate(version_names()):
            h = mix64(self.seed * 1000003 + c)
            n = int(self.L * (0.8 + 0.4 * ((h & 0xffff) / 65536.0)))
            n = max(n, 12)
            nrc = 7 + (h >> 16) % 2
            window = int(n * 0.6)
            rest = n - window
            step = max(1, rest // (nrc + 1))
            marks = [(pos + window, '-rc1')]
            for r in range(2, nrc + 1):
                marks.append((pos + window + (r - 1) * step, '-rc%d' % r))
            marks.append((pos + n, ''))
            for p, extra in marks:
                if p >= upto:
                    return out
                tag = 'v%d.%d%s' % (maj, mi, extra)
                out.append((p, tag, (maj, mi, 0, extra)))
            pos += n + 1


class ScaleRun:
    """One streaming run: a new repo (N mainline, M stable) or an append."""

    def __init__(self, g, w, state=None):
        self.g = g
        self.w = w
        self.mark = 100
        self.blob_marks = {}
        self.tags = {}           # name -> (commit hex, tag object hex)
        self.released = set()

    def emit_blobs(self, static=False):
        """The history's blobs, and with STATIC the static tree's (a new
        repository of kernel shape; an append has them already)."""
        g = self.g
        m = 1
        for k, f in enumerate(SCALE_FILES):
            for v in (0, 1):
                self.w.write(b'blob\nmark :%d\n' % m + fi_data(scale_blob(f, v, g.files)))
                self.blob_marks[(k, v)] = m
                m += 1
        self.w.write(b'blob\nmark :%d\n' % m + fi_data(README_BLOB))
        self.readme_mark = m
        if g.files:
            m += 1
            self.w.write(b'blob\nmark :%d\n' % m + fi_data(LATE_BLOB))
            self.blob_marks[(LATE_BIT, 1)] = m
        self.static = []
        if static and g.files:
            import kernel_shape
            by_top = {}
            m = STATIC_MARK0
            for path, data in kernel_shape.files(g.seed, g.files):
                self.w.write(b'blob\nmark :%d\n' % m + fi_data(data))
                self.static.append((path, m))
                top, _, rest = path.partition('/')
                by_top.setdefault(top, {})[rest] = git_hash(b'blob', data)
                m += 1
            g.set_static({d: tree_entries(f) for d, f in by_top.items()})

    def write_commit(self, ref, msg, author, committer, a_ts, c_ts, parent,
                     merge, old_bits, bits, old_mk, mk):
        """Write one commit; PARENT/MERGE are (hex, mark or None).  Returns
        (hex, mark)."""
        g = self.g
        a_ident = '%s %d %s' % (author[0], a_ts, author[1])
        c_ident = '%s %d %s' % (committer[0], c_ts, committer[1])
        msgb = msg.encode()
        parents = [p[0] for p in (parent, merge) if p]
        tree = g.tree(bits, mk)
        cid = git_hash(b'commit', commit_body(tree, parents, a_ident, c_ident,
                                              msgb)).hex()
        self.mark += 1
        out = [b'commit %s\nmark :%d\nauthor %s\ncommitter %s\n'
               % (ref, self.mark, a_ident.encode(), c_ident.encode()),
               b'data %d\n' % len(msgb), msgb]
        for kw, p in ((b'from', parent), (b'merge', merge)):
            if p:
                if p[1] is not None:
                    out.append(b'%s :%d\n' % (kw, p[1]))
                else:
                    out.append(b'%s %s\n' % (kw, p[0].encode()))
        if parent is None:
            for k, f in enumerate(g.paths):
                if (k, (bits >> k) & 1) in self.blob_marks:
                    out.append(b'M 100644 :%d %s\n'
                               % (self.blob_marks[(k, (bits >> k) & 1)], f.encode()))
            out.append(b'M 100644 :%d README\n' % self.readme_mark)
            for path, m in self.static:
                out.append(b'M 100644 :%d %s\n' % (m, path.encode()))
            old_mk = None
        else:
            diff = old_bits ^ bits
            k = 0
            while diff:
                if diff & 1:
                    v = (bits >> k) & 1
                    if (k, v) in self.blob_marks:
                        out.append(b'M 100644 :%d %s\n' % (
                            self.blob_marks[(k, v)], g.paths[k].encode()))
                    else:
                        out.append(b'D %s\n' % g.paths[k].encode())
                diff >>= 1
                k += 1
        if mk != old_mk:
            out.append(b'M 100644 inline Makefile\n'
                       + fi_data(g.makefile(mk)[1]))
        out.append(b'\n')
        self.w.write(b''.join(out))
        return cid, self.mark

    def write_tag(self, name, commit, tagger, ts):
        ident = '%s %d %s' % (tagger[0], ts, tagger[1])
        msg = ('Linux %s\n' % name[1:]).encode()
        tid = git_hash(b'tag', tag_body(commit[0], name, ident, msg)).hex()
        self.w.write(b'tag %s\nfrom :%d\ntagger %s\n' % (
            name.encode(), commit[1], ident.encode()) + fi_data(msg) + b'\n')
        self.tags[name] = (commit[0], tid)


def scale_generate(args, append):
    """The body of 'scale'; APPEND is the loaded state or None."""
    t_start = time.time()
    repo = args.dir
    gitdir = os.path.join(repo, '.git')
    if append is None:
        N, M, seed = args.mainline, args.stable, args.seed
        if N < 100:
            die('--mainline must be at least 100')
        L = max(12, N // 78)
        g = Scale(seed, N, L, args.files)
        ids = bytearray(20 * N)
        kinds = bytearray(N)
        rtarget = {}
        start = 0
        goal = N
    else:
        N0 = append['done']
        seed, L = append['seed'], append['L']
        M = 0
        N = N0 + args.append
        g = Scale(seed, N, L, append.get('files', 0))
        g.set_static({d: {n.encode(): (t, bytes.fromhex(h)) for n, t, h in e}
                      for d, e in append.get('static_top', {}).items()})
        g.late_i = append.get('late_i')
        with open(os.path.join(gitdir, IDS_FILE), 'rb') as f:
            ids = bytearray(f.read())
        with open(os.path.join(gitdir, KIND_FILE), 'rb') as f:
            kinds = bytearray(f.read())
        if len(ids) != 20 * N0 or len(kinds) != N0:
            die('scale state in %s is inconsistent' % gitdir)
        ids.extend(bytes(20 * args.append))
        kinds.extend(bytes(args.append))
        rtarget = {int(k): v for k, v in append['rtarget'].items()}
        start = N0
        goal = N
    rnd = Lcg(seed * 31 + 7 + start)
    step = max(1, (SCALE_T1 - SCALE_T0) // max(N, 1))
    sched = [x for x in g.schedule(goal + 1) if x[0] >= start]
    sched_at = {p: (tag, mk) for p, tag, mk in sched}

    proc = start_fast_import(repo)
    run = ScaleRun(g, proc.stdin)
    run.emit_blobs(static=append is None)
    # the late commit: after every stable branch's fork (at most 0.97 N)
    late_pos = int(N * 0.98) if g.files and append is None else None
    w = proc.stdin

    def rel_every(cnt):
        # A stable release every 40..120 backports, fewer for tiny runs.
        return max(2, min(40 + rnd.below(80), cnt // 6 + rnd.below(3)))

    # Stable branches fork at the LTS releases the schedule reaches.
    branches = []
    if append is None and M > 0:
        rel_pos = {tag: p for p, tag, _ in sched}
        cands = [(maj, mi) for maj, mi in LTS
                 if 'v%d.%d' % (maj, mi) in rel_pos
                 and rel_pos['v%d.%d' % (maj, mi)] < N * 0.97]
        if not cands:
            die('--mainline is too small for any stable branch')
        per = [M // len(cands) + (1 if k < M % len(cands) else 0)
               for k in range(len(cands))]
        for (maj, mi), cnt in zip(cands, per):
            fp = rel_pos['v%d.%d' % (maj, mi)]
            span = N - fp - 1
            due = [fp + 1 + int((j + 0.5) * span / cnt) for j in range(cnt)]
            branches.append(dict(name='linux-%d.%d.y' % (maj, mi),
                                 ver=(maj, mi), fork=fp, due=due, next=0,
                                 tip=None, bits=0, mk=None, sub=0,
                                 since_rel=0, cnt=cnt,
                                 rel_every=rel_every(cnt),
                                 picked=[], commits=0, ts=0))
    by_fork = {}
    for b in branches:
        by_fork.setdefault(b['fork'], []).append(b)

    recent = {}                  # i -> message body (for backports)
    stable_ids = []              # (hex, upstream i) of stable commits
    if append is None:
        tip = None
        bits = 0
        mk = (3, 0, 0, '-rc1')
        ring = []
    else:
        tip = (append['tip'], None)
        bits = append['bits']
        mk = tuple(append['mk'])
        # Marks do not survive a fast-import run: refer to old commits by id.
        ring = [((x[0], None), x[1], tuple(x[2])) for x in append['ring']]
        stable_ids = [tuple(x) for x in append['stable_ids']]
    counts = {'normal': 0, 'revert': 0, 'merge': 0, 'release': 0,
              'fixes': 0, 'stable': 0, 'stable_release': 0}

    def hexid(i):
        return ids[20 * i:20 * i + 20].hex()

    def ts_of(i):
        return SCALE_T0 + i * step + (mix64(i) % step if step > 1 else 0)

    def pick_target(i, r):
        """An earlier normal commit, mostly recent."""
        span = min(i, 400000)
        d = 1 + int(r.frac() ** 3 * (span - 1)) if span > 1 else 1
        t = i - d
        while t > 0 and kinds[t] != NORMAL:
            t -= 1
        return t if kinds[t] == NORMAL else None

    def abbrev(r):
        x = r.below(100)
        if x < 80:
            return 12
        return (8, 9, 10, 11, 13, 14, 16, 20, 40)[x % 9]

    def body_of(i, r, fi):
        """A normal commit's message after the subject line."""
        parts = []
        npar = 1 + r.below(3)
        for _ in range(npar):
            parts.append(g.paras[r.below(len(g.paras))])
        if r.below(100) < 3:
            parts.insert(1, oops(r))
        tags = []
        nfix = 0
        x = r.below(1000)
        if x < 330:
            nfix = 1 + (1 if x < 25 else 0)
        for _ in range(nfix):
            t = pick_target(i, r)
            if t is None:
                continue
            form = r.below(100)
            if stable_ids and form == 99:
                sid, up = stable_ids[r.below(len(stable_ids))]
                tags.append('Fixes: %s ("%s")' % (sid[:12],
                                                  g.subject(up, kinds, rtarget)))
                continue
            h = hexid(t)[:abbrev(r)]
            subj = g.subject(t, kinds, rtarget)
            if form < 90:
                tags.append('Fixes: %s ("%s")' % (h, subj))
            elif form < 94:
                tags.append('Fixes: commit %s ("%s")' % (h, subj))
            elif form < 97:
                tags.append('Fixes: %s' % h)
            else:
                line = 'Fixes: %s ("%s")' % (h, subj)
                cut = line.rfind(' ', 0, 60)
                tags.append(line[:cut] + '\n' + line[cut + 1:])
            counts['fixes'] += 1
        who = g.people
        if r.below(100) < 10:
            tags.append('Reported-by: %s' % who[r.below(len(who))][0])
        y = r.below(100)
        if y < 12:
            tags.append(('Cc: stable@vger.kernel.org',
                         'Cc: <stable@vger.kernel.org>',
                         'Cc: stable@vger.kernel.org # v%d.%d+' % mk[:2],
                         'Cc: <stable@vger.kernel.org> # %d.%d.x' % mk[:2],
                         'Cc: stable@vger.kernel.org # 3.10+')[y % 5])
        if r.below(100) < 25:
            tags.append('Reviewed-by: %s' % who[r.below(len(who))][0])
        if r.below(100) < 8:
            tags.append('Acked-by: %s' % who[r.below(len(who))][0])
        a = who[mix64(i * 3) % len(who)]
        tags.append('Signed-off-by: %s' % a[0])
        if r.below(100) < 40:
            t = time.gmtime(ts_of(i))
            tags.append('Link: https://lore.kernel.org/r/%04d%02d%02d%06x'
                        '.%d-%d-%s' % (t.tm_year, t.tm_mon, t.tm_mday,
                                       r.below(1 << 24), r.below(90000),
                                       1 + r.below(9), a[0].split('<')[1][:-1]))
        c = g.maint[SCALE_FILES[fi]][i % 3]
        tags.append('Signed-off-by: %s' % c[0])
        return '\n\n'.join(parts) + '\n\n' + '\n'.join(tags) + '\n', a, c

    def oops(r):
        fn = g.fn(r.next())
        off = r.below(0x400)
        rip = 0xffffffff81000000 + r.below(1 << 24)
        regs = ['%016x' % (r.next() & MASK64 if r.below(2) else
                           0xffff880000000000 + r.below(1 << 34))
                for _ in range(6)]
        code = ' '.join('%02x' % r.below(256) for _ in range(20))
        return ('  BUG: unable to handle kernel paging request at %016x\n'
                '  RIP: 0010:%s+0x%x/0x%x\n'
                '  RSP: 0018:ffffc9000%07x EFLAGS: 00010246\n'
                '  RAX: %s RBX: %s RCX: %s\n'
                '  RDX: %s RSI: %s RDI: %s\n'
                '  Code: %s\n'
                '  ---[ end trace %016x ]---'
                % (0xffffc90000000000 + r.below(1 << 30), fn, off,
                   off + 0x80 + r.below(0x200), r.below(1 << 28),
                   regs[0], regs[1], regs[2], regs[3], regs[4], regs[5],
                   code, r.next()))

    def emit_stable(b, i_now):
        """One backport (or a rare stable revert) on branch B."""
        nonlocal counts
        ts = max(b['ts'] + 60, ts_of(i_now) + 600)
        b['ts'] = ts
        x = rnd.below(1000)
        if x < 3 and len(b['picked']) > 4:
            sid, up, fk = b['picked'][rnd.below(len(b['picked']))]
            subj = 'Revert%s "%s"' % (':' if x == 0 else '',
                                      g.subject(up, kinds, rtarget))
            msg = (subj + '\n\nThis reverts commit %s which was\n'
                   'commit %s upstream.\n\nIt causes a regression on %d.%d.y; '
                   'the prerequisites are not in\nthis tree.\n\n'
                   'Signed-off-by: %s\n' % (sid, hexid(up), b['ver'][0],
                                            b['ver'][1], g.stable_maint[0]))
            fi = fk
            author = g.stable_maint
        else:
            up = None
            if x < 13 and b['picked']:
                # A duplicate backport of something already picked.
                up = b['picked'][rnd.below(len(b['picked']))][1]
                if up not in recent:
                    up = None
            if up is None:
                for _ in range(12):
                    u = i_now - 1 - rnd.below(min(i_now - b['fork'] - 1, 5000)
                                               or 1)
                    if u > b['fork'] and u in recent and kinds[u] == NORMAL:
                        up = u
                        if 'Fixes:' in recent[u][0]:
                            break
                if up is None:
                    # Nothing suitable since the fork yet: try again later.
                    return False
            body, author, _c = recent[up]
            subj = g.subject(up, kinds, rtarget)
            form = rnd.below(100)
            uid = hexid(up)
            if form < 70:
                head = 'commit %s upstream.\n\n' % uid
                msg = subj + '\n\n' + head + body
            elif form < 88:
                head = '[ Upstream commit %s ]\n\n' % uid
                msg = subj + '\n\n' + head + body
            elif form < 93:
                msg = subj + '\n\nUpstream commit %s.\n\n' % uid + body
            elif form < 97:
                msg = subj + '\n\n' + body + '(cherry picked from commit %s)\n' % uid
            else:
                msg = subj + '\n\ncommit %s upstream\n\n' % uid + body
            if form >= 70 and form < 88:
                msg += 'Signed-off-by: %s\n' % g.stable_maint2[0]
            msg += 'Signed-off-by: %s\n' % g.stable_maint[0]
            fi = g.file_of(up)
        ref = ('refs/heads/' + b['name']).encode()
        old = b['bits']
        b['bits'] ^= 1 << fi
        sid, smark = run.write_commit(ref, msg, author, g.stable_maint,
                                      ts - 86400 * 3, ts, b['tip'], None, old,
                                      b['bits'], b['mk'], b['mk'])
        b['tip'] = (sid, smark)
        b['picked'].append((sid, up, fi))
        stable_ids.append((sid, up))
        b['commits'] += 1
        counts['stable'] += 1
        b['since_rel'] += 1
        if b['since_rel'] >= b['rel_every']:
            b['sub'] += 1
            b['since_rel'] = 0
            b['rel_every'] = rel_every(b['cnt'])
            newmk = (b['ver'][0], b['ver'][1], b['sub'], '')
            tag = 'v%d.%d.%d' % newmk[:3]
            b['ts'] += 60
            rid, rmark = run.write_commit(
                ref, 'Linux %s\n' % tag[1:], g.stable_maint, g.stable_maint,
                b['ts'], b['ts'], b['tip'], None, b['bits'], b['bits'],
                b['mk'], newmk)
            b['mk'] = newmk
            b['tip'] = (rid, rmark)
            run.write_tag(tag, b['tip'], g.stable_maint, b['ts'] + 300)
            counts['stable_release'] += 1
        return True

    i = start
    last_report = time.time()
    while i < goal:
        # A release commit due here?
        if i in sched_at:
            tag, newmk = sched_at[i]
            ts = ts_of(i)
            kinds[i] = RELEASE
            old = mk
            cid, cm = run.write_commit(b'refs/heads/master',
                                       'Linux %s\n' % tag[1:], g.top, g.top,
                                       ts, ts, tip, None, bits, bits, old,
                                       newmk)
            mk = newmk
            ids[20 * i:20 * i + 20] = bytes.fromhex(cid)
            tip = (cid, cm)
            ring.append((tip, bits, mk))
            run.write_tag(tag, tip, g.top, ts + 600)
            counts['release'] += 1
            for b in by_fork.get(i, []):
                b['tip'], b['bits'], b['mk'], b['ts'] = tip, bits, mk, ts
            i += 1
            continue
        x = rnd.below(1000)
        nside = 0
        if tip is not None and x < 40 and i + 3 < goal:
            nside = min(1 + rnd.below(6), goal - i - 2)
            # Never run a side branch across a scheduled release.
            for k in range(i, i + nside + 1):
                if k in sched_at:
                    nside = 0
                    break
        if nside:
            back = min(len(ring), 1 + rnd.below(20))
            fork_tip, fork_bits, fork_mk = ring[-back]
            stip, sbits = fork_tip, fork_bits
            subjects = []
            for _ in range(nside):
                r = Lcg(seed * 1000033 + i)
                kinds[i] = NORMAL
                fi = g.file_of(i)
                body, a, c = body_of(i, r, fi)
                subj = g.subject(i, kinds, rtarget)
                ts = ts_of(i)
                old = sbits
                sbits ^= 1 << fi
                cid, cm = run.write_commit(
                    b'refs/heads/master', subj + '\n\n' + body, a, c,
                    ts - r.below(86400 * 20), ts, stip, None, old, sbits,
                    fork_mk, fork_mk)
                ids[20 * i:20 * i + 20] = bytes.fromhex(cid)
                recent[i] = (body, a, c)
                stip = (cid, cm)
                subjects.append(subj)
                counts['normal'] += 1
                i += 1
            ts = ts_of(i)
            maint = g.maint[SCALE_FILES[g.file_of(i)]][0]
            topic = ('fixes', 'for-linus', 'next', 'urgent', 'core',
                     'misc')[rnd.below(6)]
            tree_name = maint[0].split('<')[1].split('@')[0]
            msg = ("Merge branch '%s' of git://git.kernel.org/pub/scm/linux/"
                   "kernel/git/%s/linux\n\nPull %s updates from %s:\n\n"
                   % (topic, tree_name, topic, maint[0].split(' <')[0]))
            msg += ''.join(' - %s\n' % s_.split(': ', 1)[-1] for s_ in subjects)
            msg += "\n* '%s' of git://git.kernel.org/pub/scm/linux/kernel/git/" \
                   "%s/linux:\n" % (topic, tree_name)
            msg += ''.join('  %s\n' % s_ for s_ in reversed(subjects))
            kinds[i] = MERGE
            newbits = bits ^ (sbits ^ fork_bits)
            cid, cm = run.write_commit(b'refs/heads/master', msg, g.top, g.top,
                                       ts, ts, tip, stip, bits, newbits, mk, mk)
            bits = newbits
            ids[20 * i:20 * i + 20] = bytes.fromhex(cid)
            tip = (cid, cm)
            ring.append((tip, bits, mk))
            counts['merge'] += 1
            i += 1
        else:
            r = Lcg(seed * 1000033 + i)
            ts = ts_of(i)
            late = late_pos is not None and g.late_i is None and i >= late_pos
            if not late and i > 50 and r.below(1000) < 5:
                t = pick_target(i, r)
            else:
                t = None
            if t is not None:
                kinds[i] = REVERT
                rtarget[i] = t
                fi = g.file_of(t)
                a = g.people[mix64(i * 3) % len(g.people)]
                c = g.maint[SCALE_FILES[fi]][0]
                body = ('This reverts commit %s.\n\n%s\n\nSigned-off-by: %s\n'
                        'Signed-off-by: %s\n' % (hexid(t),
                                                g.paras[r.below(len(g.paras))],
                                                a[0], c[0]))
                counts['revert'] += 1
            else:
                kinds[i] = NORMAL
                fi = g.file_of(i)
                body, a, c = body_of(i, r, fi)
                counts['normal'] += 1
            if late:
                g.late_i = i
            subj = g.subject(i, kinds, rtarget)
            old = bits
            bits = bits | 1 << LATE_BIT if late else bits ^ 1 << fi
            cid, cm = run.write_commit(b'refs/heads/master',
                                       subj + '\n\n' + body, a, c,
                                       ts - r.below(86400 * 20), ts, tip, None,
                                       old, bits, mk, mk)
            ids[20 * i:20 * i + 20] = bytes.fromhex(cid)
            if kinds[i] == NORMAL:
                recent[i] = (body, a, c)
            tip = (cid, cm)
            ring.append((tip, bits, mk))
            i += 1
        if len(ring) > 64:
            del ring[:-64]
        if len(recent) > 12000:
            for k in sorted(recent)[:2000]:
                del recent[k]
        for b in branches:
            while b['next'] < len(b['due']) and b['due'][b['next']] <= i - 1 \
                    and b['tip'] is not None:
                if not emit_stable(b, i):
                    break
                b['next'] += 1
        if time.time() - last_report > 10:
            last_report = time.time()
            sys.stderr.write('gen-kernel: scale: %d/%d mainline, %d stable '
                             '(%.0fs)\n' % (i, goal, counts['stable'],
                                            time.time() - t_start))
    for b in branches:
        while b['next'] < len(b['due']):
            if not emit_stable(b, goal):
                die('no commit to backport to %s' % b['name'])
            b['next'] += 1
    finish_fast_import(proc)

    # Check what git wrote against the ids computed here.
    refs = dict(l.split(' ', 1)[::-1] for l in git(
        repo, 'for-each-ref', '--format=%(objectname) %(refname)')
        .decode().splitlines())
    if refs.get('refs/heads/master') != tip[0]:
        die('master: git has %s, computed %s' % (refs.get('refs/heads/master'),
                                                  tip[0]))
    for b in branches:
        if refs.get('refs/heads/' + b['name']) != b['tip'][0]:
            die('%s: ids differ from git' % b['name'])
    for name, (cid, tid) in run.tags.items():
        if refs.get('refs/tags/' + name) != tid:
            die('tag %s: ids differ from git' % name)
    git(repo, 'reset', '-q', '--hard', 'master')
    # Save what --append needs.
    with open(os.path.join(gitdir, IDS_FILE), 'wb') as f:
        f.write(ids)
    with open(os.path.join(gitdir, KIND_FILE), 'wb') as f:
        f.write(kinds)
    prev = append or {}
    st = dict(seed=seed, L=L, done=goal, tip=tip[0], bits=bits, mk=list(mk),
              ring=[[t_[0], b_, list(m_)] for t_, b_, m_ in ring[-64:]],
              rtarget={str(k): v for k, v in rtarget.items()},
              stable_ids=[list(x) for x in stable_ids[-2000:]],
              branches=prev.get('branches', {}),
              counts=prev.get('counts', {}))
    if g.files:
        st['files'] = g.files
        st['late_i'] = g.late_i
        st['static_top'] = {d: sorted([n.decode(), t, h.hex()] for n, (t, h) in e.items())
                            for d, e in g.static_top.items()}
    for b in branches:
        st['branches'][b['name']] = dict(tip=b['tip'][0], backports=b['commits'],
                                         releases=b['sub'])
    for k, v in counts.items():
        st['counts'][k] = st['counts'].get(k, 0) + v
    with open(os.path.join(gitdir, STATE_FILE), 'w') as f:
        json.dump(st, f, indent=1, sort_keys=True)
        f.write('\n')
    sys.stderr.write('gen-kernel: scale: %d mainline commits (%s), %d stable '
                     'in %.1fs\n' % (goal, ', '.join('%s %d' % kv for kv in
                                                     sorted(counts.items())),
                                     counts['stable'], time.time() - t_start))


def cmd_scale(args):
    if args.append is not None:
        path = os.path.join(args.dir, '.git', STATE_FILE)
        try:
            with open(path) as f:
                state = json.load(f)
        except OSError as e:
            die("cannot read '%s': %s" % (path, e.strerror))
        if args.append < 1:
            die('--append needs a positive count')
        scale_generate(args, state)
    else:
        new_repo(args.dir)
        scale_generate(args, None)


# --------------------------------------------------------------------------

# --------------------------------------------------------------------------
# multi: several stable branches reviewed together (review --all-open)

MULTI_DAY = 1705312800          # Mon, 15 Jan 2024 10:00:00 +0000


def multi_commits():
    """The history as (name, ref, parent, time, message), in order; the
    message may name earlier commits as {name}."""
    d = 86400
    return [
        ('base', 'master', None, 1546300800, 'Initial import\n'),
        ('x54', 'master', 'base', 1574553600, 'Linux 5.4\n'),
        ('x58', 'master', 'x54', 1596931200, 'Linux 5.8\n'),
        ('x510', 'master', 'x58', 1607904000, 'Linux 5.10\n'),
        ('t', 'master', 'x510', 1620000000,
         'drm/vkms: add the blend helper\n\nA helper for blending planes.\n'),
        ('x515', 'master', 't', 1635120000, 'Linux 5.15\n'),
        ('x61', 'master', 'x515', 1670803200, 'Linux 6.1\n'),
        ('a', 'master', 'x61', 1703000000,
         'net: fix a use-after-free in sock_foo()\n\nThe socket can be freed while'
         ' foo still holds it.\n\nCc: stable@vger.kernel.org\n'),
        ('b', 'master', 'a', 1703100000,
         'usb: core: fix a leak in usb_bar()\n\nThe buffer is never freed on the'
         ' error path.\n\nCc: stable@vger.kernel.org\n'),
        ('c', 'master', 'b', 1703200000,
         'drm/vkms: fix the blend helper for odd widths\n\nFixes: {t:12} '
         '("drm/vkms: add the blend helper")\nCc: stable@vger.kernel.org\n'),
        ('cf', 'master', 'c', 1703300000,
         'drm/vkms: do not read past the line in the blend fix\n\nFixes: {c:12} '
         '("drm/vkms: fix the blend helper for odd widths")\nCc: stable@vger.kernel.org\n'),
        ('dd', 'master', 'cf', 1703400000,
         'ext4: fix a deadlock in ext4_baz()\n\nTwo locks taken in the wrong order.\n\n'
         'Cc: stable@vger.kernel.org\n'),
        ('old', 'master', 'dd', 1703500000,
         'fs: tidy the baz path\n\nNothing to see.\n'),
        ('tip', 'master', 'old', 1705400000, 'Merge tag \'fixes\'\n'),
        # the stable branches, each with its latest release before the reviews
        ('s54', 'linux-5.4.y', 'x54', 1704326400, 'Linux 5.4.266\n'),
        ('s58', 'linux-5.8.y', 'x58', 1604102400, 'Linux 5.8.18\n'),
        ('s510', 'linux-5.10.y', 'x510', 1704326400, 'Linux 5.10.207\n'),
        ('s515', 'linux-5.15.y', 'x515', 1704326400, 'Linux 5.15.146\n'),
        ('s61', 'linux-6.1.y', 'x61', 1704326400, 'Linux 6.1.72\n'),
    ], [('v5.4', 'x54'), ('v5.8', 'x58'), ('v5.10', 'x510'), ('v5.15', 'x515'),
        ('v6.1', 'x61'), ('v5.4.266', 's54'), ('v5.8.18', 's58'),
        ('v5.10.207', 's510'), ('v5.15.146', 's515'), ('v6.1.72', 's61')]


def multi_repo(repo):
    commits, tags = multi_commits()
    new_repo(repo)
    marks_file = os.path.join(repo, '.git', 'gen-kernel.marks')
    proc = start_fast_import(repo, ['--export-marks=' + marks_file])
    mark = {}
    for n, (name, ref, parent, ts, msg) in enumerate(commits, 1):
        mark[name] = n
    ids = {}
    # Messages name earlier ids: import in two steps where needed.
    w = proc.stdin
    for name, ref, parent, ts, msg in commits:
        if '{' in msg:
            # flush and read the marks so far
            finish_fast_import(proc)
            ids = read_marks(marks_file, mark)
            proc = start_fast_import(repo, ['--import-marks=' + marks_file,
                                            '--export-marks=' + marks_file])
            w = proc.stdin
            msg = re.sub(r'\{(\w+):12\}', lambda m: ids[m.group(1)][:12], msg)
        who = b'Dev Eloper <dev@example.org> %d +0000' % ts
        if parent is None:
            w.write(b'reset refs/heads/%s\n' % ref.encode())
        w.write(b'commit refs/heads/%s\nmark :%d\nauthor %s\ncommitter %s\n'
                % (ref.encode(), mark[name], who, who))
        w.write(fi_data(msg.encode()))
        if parent is not None:
            w.write(b'from :%d\n' % mark[parent])
        w.write(b'M 644 inline files/%s\n' % name.encode())
        w.write(fi_data(b'%s\n' % name.encode()))
        w.write(b'\n')
    for tag, name in tags:
        w.write(b'reset refs/tags/%s\nfrom :%d\n\n' % (tag.encode(), mark[name]))
    finish_fast_import(proc)
    ids = read_marks(marks_file, mark)
    os.unlink(marks_file)
    git(repo, 'reset', '-q', '--hard', 'master')
    return ids


def read_marks(marks_file, mark):
    by_mark = {}
    with open(marks_file) as f:
        for ln in f:
            m, sha = ln.split()
            by_mark[int(m[1:])] = sha
    return {name: by_mark[m] for name, m in mark.items() if m in by_mark}


def multi_date(ts):
    t = time.gmtime(ts)
    return '%s, %d %s %d %02d:%02d:%02d +0000' % (
        DAYS[t.tm_wday], t.tm_mday, MONTHS[t.tm_mon - 1], t.tm_year,
        t.tm_hour, t.tm_min, t.tm_sec)


def multi_iso(ts):
    return time.strftime('%Y-%m-%dT%H:%M+00:00', time.gmtime(ts))


SUBJECTS = {
    'a': 'net: fix a use-after-free in sock_foo()',
    'b': 'usb: core: fix a leak in usb_bar()',
    'c': 'drm/vkms: fix the blend helper for odd widths',
    'cf': 'drm/vkms: do not read past the line in the blend fix',
    'dd': 'ext4: fix a deadlock in ext4_baz()',
    'old': 'fs: tidy the baz path',
}


def multi_thread(ids, version, release, ts, names, tag):
    """A review thread: the cover and one mail per upstream commit."""
    total = len(names)
    cover_id = '%d.%s.cover@linuxfoundation.org' % (ts, tag)
    deadline = ts + 2 * 86400
    mails = []
    cover = (
        'From: Greg Kroah-Hartman <gregkh@linuxfoundation.org>\n'
        'To: stable@vger.kernel.org\n'
        'Subject: [PATCH %s 00/%02d] %s review\n'
        'Date: %s\nMessage-Id: <%s>\n'
        'X-stable: review\nX-Patchwork-Hint: ignore\n'
        'X-KernelTest-Branch: linux-%s.y\nX-KernelTest-Version: %s\n'
        'X-KernelTest-Deadline: %s\n\n'
        'This is the start of the stable review cycle for the %s release.\n'
        'There are %d patches in this series, all will be posted as a response\n'
        'to this one.  If anyone has any issues with these being applied, please\n'
        'let me know.\n\nResponses should be made by %s.\n'
        'Anything received after that time might be too late.\n\n'
        'thanks,\n\ngreg k-h\n'
        % (version, total, release, multi_date(ts), cover_id, version, release,
           multi_iso(deadline), release.split('-')[0], total, multi_date(deadline)))
    mails.append((ts, cover))
    for n, name in enumerate(names, 1):
        mid = '%d.%s.%02d@linuxfoundation.org' % (ts, tag, n)
        body = (
            'From: Greg Kroah-Hartman <gregkh@linuxfoundation.org>\n'
            'To: stable@vger.kernel.org\n'
            'Subject: [PATCH %s %02d/%02d] %s\n'
            'Date: %s\nMessage-Id: <%s>\nIn-Reply-To: <%s>\nReferences: <%s>\n\n'
            '%s-stable review patch.  If anyone has any objections, please let me know.\n\n'
            '------------------\n\nFrom: Dev Eloper <dev@example.org>\n\n'
            'commit %s upstream.\n\n%s\n'
            'Signed-off-by: Greg Kroah-Hartman <gregkh@linuxfoundation.org>\n---\n'
            ' files/%s | 1 +\n 1 file changed, 1 insertion(+)\n\n'
            'diff --git a/files/%s b/files/%s\nnew file mode 100644\n'
            '--- /dev/null\n+++ b/files/%s\n@@ -0,0 +1 @@\n+%s\n'
            % (version, n, total, SUBJECTS[name], multi_date(ts + n), mid, cover_id,
               cover_id, version, ids[name], SUBJECTS[name], name, name, name, name, name))
        mails.append((ts + n, body))
    return mails


def multi_notices(ids, ts):
    failed = (
        'From: <gregkh@linuxfoundation.org>\nTo: dev@example.org,stable@vger.kernel.org\n'
        'Subject: FAILED: patch "[PATCH] %s" failed to apply to 5.15-stable tree\n'
        'Date: %s\nMessage-Id: <2024011047-failed-cf@gregkh>\n\n'
        '\nThe patch below does not apply to the 5.15-stable tree.\n'
        'If someone wants it applied there, or to any other stable or longterm\n'
        'tree, then please email the backport, including the original git commit\n'
        'id to <stable@vger.kernel.org>.\n\n'
        'To reproduce the conflict and resubmit, you may use the following commands:\n\n'
        'git fetch https://git.kernel.org/pub/scm/linux/kernel/git/stable/linux.git/ linux-5.15.y\n'
        'git checkout FETCH_HEAD\ngit cherry-pick -x %s\n'
        '# <resolve conflicts, build, test, etc.>\n'
        'git commit -s\ngit send-email --to \'<stable@vger.kernel.org>\' --in-reply-to \'2024011047-failed-cf@gregkh\' --subject-prefix \'PATCH 5.15.y\' HEAD^..\n\n'
        'Possible dependencies:\n\n\n\nthanks,\n\ngreg k-h\n\n'
        '------------------ original commit in Linus\'s tree ------------------\n\n'
        'From %s Mon Sep 17 00:00:00 2001\nFrom: Dev Eloper <dev@example.org>\n'
        'Date: %s\nSubject: [PATCH] %s\n\n' 'Fixes: %s\n'
        % (SUBJECTS['cf'], multi_date(ts - 5 * 86400), ids['cf'], ids['cf'],
           multi_date(1703300000), SUBJECTS['cf'], ids['c'][:12]))
    added = (
        'From: <gregkh@linuxfoundation.org>\nTo: dev@example.org\n'
        'Cc: stable-commits@vger.kernel.org\n'
        'Subject: Patch "%s" has been added to the 6.1-stable tree\n'
        'Date: %s\nMessage-Id: <2024011330-added-b@gregkh>\n\n'
        '\nThis is a note to let you know that I\'ve just added the patch titled\n\n'
        '    %s\n\nto the 6.1-stable tree which can be found at:\n'
        '    http://www.kernel.org/git/?p=linux/kernel/git/stable/stable-queue.git;a=summary\n\n'
        'The filename of the patch is:\n     usb-core-fix-a-leak-in-usb_bar.patch\n'
        'and it can be found in the queue-6.1 subdirectory.\n\n'
        'If you, or anyone else, feels it should not be added to the stable tree,\n'
        'please let <stable@vger.kernel.org> know about it.\n\n\n'
        'From %s Mon Sep 17 00:00:00 2001\nFrom: Dev Eloper <dev@example.org>\n'
        'Date: %s\nSubject: %s\n\nThe buffer is never freed on the error path.\n'
        % (SUBJECTS['b'], multi_date(ts - 2 * 86400), SUBJECTS['b'], ids['b'],
           multi_date(1703100000), SUBJECTS['b']))
    return [(ts - 5 * 86400, failed), (ts - 2 * 86400, added)]


def cmd_multi(args):
    ids = multi_repo(os.path.join(args.dir, 'kernel'))
    day = MULTI_DAY
    mails = []
    mails += multi_thread(ids, '5.4', '5.4.267-rc1', day, ['a', 'b', 'dd'], '54')
    mails += multi_thread(ids, '5.10', '5.10.208-rc1', day + 600, ['a', 'b'], '510')
    # 5.15: an -rc1 two days before, superseded by the -rc2
    mails += multi_thread(ids, '5.15', '5.15.147-rc1', day - 2 * 86400, ['a'], '515rc1')
    mails += multi_thread(ids, '5.15', '5.15.147-rc2', day + 1200, ['a', 'c'], '515')
    mails += multi_thread(ids, '6.1', '6.1.73-rc1', day + 1800, ['a', 'c', 'cf'], '61')
    # a thread of last year, long closed
    mails += multi_thread(ids, '5.10', '5.10.185-rc1', 1687000000, ['old'], '510old')
    mails += multi_notices(ids, day)
    path = os.path.join(args.dir, 'mail', 'multi')
    for sub in ('cur', 'new', 'tmp'):
        os.makedirs(os.path.join(path, sub), exist_ok=True)
    for n, (ts, text) in enumerate(mails, 1):
        fn = '%d.%06d.fixscan:2,S' % (ts, n)
        with open(os.path.join(path, 'cur', fn), 'w', encoding='utf-8') as f:
            f.write(text)
    answers = {
        'ids': ids,
        'since': '2024-01-12',
        'series': ['5.4.267-rc1', '5.10.208-rc1', '5.15.147-rc2', '6.1.73-rc1'],
        # [release of the thread, NN, upstream commit, newer branch]
        'missing_in_newer': [
            ['5.4.267-rc1', 2, 'b', 'linux-5.15.y'],
            ['5.4.267-rc1', 3, 'dd', 'linux-5.10.y'],
            ['5.4.267-rc1', 3, 'dd', 'linux-5.15.y'],
            ['5.4.267-rc1', 3, 'dd', 'linux-6.1.y'],
            ['5.10.208-rc1', 2, 'b', 'linux-5.15.y'],
        ],
        # the fix missing in 5.15, queued for 6.1 as 03/03, FAILED for 5.15
        'fix_missing': ['5.15.147-rc2', 2, 'cf', 'linux-6.1.y', 3,
                        '2024011047-failed-cf@gregkh'],
    }
    with open(os.path.join(args.dir, 'answers.json'), 'w', encoding='utf-8') as f:
        json.dump(answers, f, indent=1, sort_keys=True)
        f.write('\n')


def main():
    ap = argparse.ArgumentParser(prog='gen-kernel.py', description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest='cmd', required=True)
    p = sub.add_parser('sample', help='build the sample repository')
    p.add_argument('dir')
    p = sub.add_parser('maildir', help='write the sample mail')
    p.add_argument('repo')
    p.add_argument('outdir')
    p.add_argument('--only', metavar='NAME',
                   help='write only this maildir (review-4.4, review-4.5, '
                        'lists) directly into OUTDIR')
    p = sub.add_parser('multi', help='build the multi-branch sample')
    p.add_argument('dir')
    p = sub.add_parser('scale', help='build (or extend) a big repository')
    p.add_argument('dir')
    p.add_argument('--mainline', type=int, default=1300000, metavar='N')
    p.add_argument('--stable', type=int, default=40000, metavar='M')
    p.add_argument('--append', type=int, metavar='K',
                   help='add K mainline commits to an existing scale repo')
    p.add_argument('--files', type=int, default=0, metavar='F',
                   help='add F C files of kernel shape to the tree (make bench: 60000)')
    p.add_argument('--seed', type=int, default=1)
    args = ap.parse_args()
    # Paths are handed to "git -C": make them independent of it.
    for k in ('dir', 'repo', 'outdir'):
        if getattr(args, k, None):
            setattr(args, k, os.path.abspath(getattr(args, k)))
    if args.cmd == 'sample':
        cmd_sample(args)
    elif args.cmd == 'maildir':
        cmd_maildir(args)
    elif args.cmd == 'multi':
        cmd_multi(args)
    else:
        cmd_scale(args)


if __name__ == '__main__':
    main()

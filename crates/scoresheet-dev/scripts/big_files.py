#!/usr/bin/env python3
"""Two big files through `scoresheet watch` (2 workers, desk off): the 1 MiB
file of random move-shaped games and the file of 12,000 named games that
../shared/eval/daemon_load_check.py makes (its generators, seed 3), dropped
together or the random one after the named one is done. Prints each file's
`ms=` from the daemon's log and the daemon's peak memory (VmHWM).

usage: big_files.py BIN EVAL_DIR [after|together]
"""
import os, re, shutil, subprocess, sys, tempfile, time

bin_, eval_dir = sys.argv[1], sys.argv[2]
mode = sys.argv[3] if len(sys.argv) > 3 else 'after'
sys.path.insert(0, eval_dir)
from daemon_load_check import named_games, random_games  # noqa: E402

work = tempfile.mkdtemp(prefix='big-files-')
files = {n: os.path.join(work, n) for n in ('named-12000.txt', 'random-games.txt')}
named_games(files['named-12000.txt'])
random_games(files['random-games.txt'])
root, log, cfg = (os.path.join(work, n) for n in ('root', 'log', 'cfg.yaml'))
open(cfg, 'w').write('watch:\n  workers: 2\ndesk:\n  enabled: false\n')
p = subprocess.Popen([bin_, 'watch', '--root', root, '--config', cfg], stdout=open(log, 'w'),
                     stderr=subprocess.STDOUT, start_new_session=True)
inbox = os.path.join(root, 'inbox')
while not os.path.isdir(inbox):
    time.sleep(0.1)
time.sleep(1)


def drop(n):
    tmp = os.path.join(inbox, '.' + n + '.tmp')
    shutil.copyfile(files[n], tmp)
    os.rename(tmp, os.path.join(inbox, n))


def done(n):
    m = re.search(rf'done file={re.escape(n)} .*?ms=(\d+)', open(log, errors='replace').read())
    return int(m.group(1)) if m else None


def peak():
    for line in open(f'/proc/{p.pid}/status'):
        if line.startswith('VmHWM:'):
            return int(line.split()[1]) // 1024


drop('named-12000.txt')
while mode == 'after' and done('named-12000.txt') is None:
    time.sleep(0.5)
drop('random-games.txt')
deadline = time.time() + 3600
while (done('random-games.txt') is None or done('named-12000.txt') is None) and time.time() < deadline:
    time.sleep(0.5)
t0 = time.time()
subprocess.run([bin_, 'convert', '--json', files['random-games.txt']], capture_output=True)
convert_ms = int((time.time() - t0) * 1000)
print(f'SCORE mode={mode} named_ms={done("named-12000.txt")} random_ms={done("random-games.txt")} '
      f'random_convert_ms={convert_ms} peak_mb={peak()}')
os.killpg(p.pid, 15)
p.wait()
shutil.rmtree(work, ignore_errors=True)

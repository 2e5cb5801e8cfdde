#!/usr/bin/env bash
# A one-node Slurm cluster on this machine for the Slurm tests (test/slurm) and CI: Debian's slurm-wlm
# and munge, slurmctld + slurmd for the node `hostname -s` with its real CPUs and memory. Idempotent:
# installs only what is missing, rewrites the config only when it changed, starts only what is not running.
# Needs root. Without cgroups (containers), so proctrack/linuxproc and task/none; no slurmdbd, so
# accounting is off and finished tasks are read from job completion records (`sacct --completion`).
set -euo pipefail

if [ "$(id -u)" != 0 ]; then
  echo "slurm-up: needs root (it installs packages and starts daemons)" >&2
  exit 1
fi

if ! command -v slurmctld >/dev/null 2>&1 || ! command -v slurmd >/dev/null 2>&1 || ! command -v munged >/dev/null 2>&1; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
fi

host=$(hostname -s)
conf_dir=/etc/slurm
state=/var/spool/slurm-benchgrid
logs=/var/log/slurm-benchgrid
mkdir -p "$conf_dir" "$state/ctld" "$state/d" "$logs" /run/munge /var/lib/munge /var/log/munge

# munge: a key (the package usually made one), its directories owned by the munge user.
if [ ! -s /etc/munge/munge.key ]; then
  if command -v mungekey >/dev/null 2>&1; then mungekey --create --keyfile=/etc/munge/munge.key --force
  else dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key 2>/dev/null; fi
fi
chown -R munge:munge /etc/munge /run/munge /var/lib/munge /var/log/munge
chmod 0700 /etc/munge /var/lib/munge /var/log/munge
chmod 0755 /run/munge
chmod 0400 /etc/munge/munge.key
if ! munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1; then
  runuser -u munge -- /usr/sbin/munged
  for _ in $(seq 1 50); do munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1 && break; sleep 0.2; done
fi

# The node as slurmd itself sees it (CPUs, sockets, cores, memory), addressed at 127.0.0.1.
node_line=$(slurmd -C | head -n 1 | sed "s/^NodeName=[^ ]*/NodeName=$host NodeAddr=127.0.0.1/")
new_conf=$(cat <<EOF
# Written by benchgrid's scripts/slurm-up.sh: a one-node test cluster.
ClusterName=benchgrid
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SchedulerType=sched/backfill
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/d
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$logs/slurmctld.log
SlurmdLogFile=$logs/slurmd.log
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/filetxt
JobCompLoc=$logs/jobcomp.log
MinJobAge=600
KillWait=5
$node_line State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
)
changed=0
if [ ! -f "$conf_dir/slurm.conf" ] || [ "$(cat "$conf_dir/slurm.conf")" != "$new_conf" ]; then
  printf '%s\n' "$new_conf" >"$conf_dir/slurm.conf"
  changed=1
fi
# Debian's slurmd looks for cgroup.conf only with cgroup plugins; an empty one keeps older versions quiet.
[ -f "$conf_dir/cgroup.conf" ] || printf 'CgroupPlugin=autodetect\n' >"$conf_dir/cgroup.conf"

running() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }
if [ "$changed" = 1 ]; then
  # A new config: restart whatever runs with the old one.
  for pidfile in "$state/slurmd.pid" "$state/slurmctld.pid"; do
    if running "$pidfile"; then kill "$(cat "$pidfile")"; sleep 1; fi
  done
fi
running "$state/slurmctld.pid" || /usr/sbin/slurmctld
running "$state/slurmd.pid" || /usr/sbin/slurmd

# Ready when the node is idle (or already running jobs).
for _ in $(seq 1 60); do
  st=$(sinfo --noheader --nodes="$host" --format=%t 2>/dev/null | head -n 1 || true)
  case "$st" in
    idle|mix|alloc) echo "slurm-up: node $host is $st"; exit 0 ;;
    down*|drain*) scontrol update NodeName="$host" State=RESUME 2>/dev/null || true ;;
  esac
  sleep 1
done
echo "slurm-up: the node $host did not become idle; sinfo says '${st:-nothing}'. Logs: $logs" >&2
tail -n 20 "$logs/slurmctld.log" "$logs/slurmd.log" >&2 || true
exit 1

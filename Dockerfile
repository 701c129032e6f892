# The server's image: `docker build -t agent-platform .`, then
#   docker run -p 8080:8080 -v agent-platform-data:/data agent-platform
# for the embedded default (SQLite in the /data volume), or see compose.yaml for PostgreSQL with
# separate API and worker processes. The build runs the commands CI runs (npm ci, npm run build).
# Podman/Buildah keep the HEALTHCHECK only in the Docker format: `podman build --format docker`.

# ---- build: compiles the TypeScript and the native modules ------------------------------------
FROM node:24-slim AS build
WORKDIR /app
# Nothing may download a prebuilt binary at install: better-sqlite3 13 ships its Node-API binary inside
# its npm package, and the driver for Node 20 (better-sqlite3-node20, an optional dependency) is
# compiled from source with the image's own headers (nodedir), so node-gyp downloads nothing either.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
ENV npm_config_build_from_source=true \
    npm_config_nodedir=/usr/local
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# The image runs Node 24: the Node 20 driver is left out of it. recheck's Java build (23 MB) is left
# out too: recheck runs it only where its native build is missing and a `java` is installed, and the
# image has no Java (docs/guardrails.md, "Patterns").
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund \
 && rm -rf node_modules/better-sqlite3-node20 node_modules/recheck-jar \
 && npm cache clean --force

# ---- run: the compiled server and its production dependencies, as an unprivileged user -------
FROM node:24-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json /app/CHANGELOG.md ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The node user (uid 1000) of the base image owns the data folder: SQLite database, secret key, files.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
# Ready = the database answers (GET /ready); no curl in the image, Node's fetch does it.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# `node` as PID 1 receives SIGTERM from `docker stop` and shuts down gracefully.
ENTRYPOINT ["node", "dist/cli.js"]
CMD ["serve"]

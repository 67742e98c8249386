# staygate gateway image: Node 24 (the line .nvmrc names), production dependencies only, non-root.
# Build: docker build -t staygate .   Run: see compose.yaml (PostgreSQL, Redis, simulator, two gateways, nginx).

# Stage 1: everything, to build the pages (web/dist) and the client SDK (packages/*/dist).
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages ./packages
# No compiler: better-sqlite3 13 (Node-API) ships its Linux x64/arm64 binaries (glibc 2.34; bookworm has 2.36).
RUN npm ci --no-audit --no-fund --ignore-scripts && npm rebuild esbuild
COPY . .
RUN npm run build

# Stage 2: production dependencies and what the build made.
FROM node:24-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 STAYGATE_DATA_DIR=/data
# glibc malloc gives back what a content refresh used (docs/decisions.md 205), as `npm start` sets it.
ENV MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=131072 MALLOC_TRIM_THRESHOLD_=131072
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/packages ./packages
COPY --from=build /app/node_modules ./node_modules
RUN npm prune --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/bin ./bin
COPY --from=build /app/src ./src
COPY --from=build /app/web/dist ./web/dist
COPY --from=build /app/docs ./docs
COPY --from=build /app/README.md ./
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# node itself, not npm: the container's stop signal reaches the gateway, which shuts down cleanly.
CMD ["node", "--import", "tsx", "src/server.ts"]

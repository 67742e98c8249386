/**
 * nginx in front of the gateways: round robin, keep-alive to the upstreams, the client's address
 * passed on (the gateways trust loopback proxies: STAYGATE_TRUSTED_PROXIES), and the gateway that
 * answered named in `X-Upstream` so a smoke check can see both serve. Everything nginx writes
 * stays under `prefix`, so it runs as any user beside a system nginx.
 */
export function renderNginxConf(options: { port: number; upstreams: readonly string[]; prefix: string }): string {
  const servers = options.upstreams.map((host) => `    server ${host} max_fails=1 fail_timeout=2s;`).join('\n');
  return `worker_processes 1;
pid ${options.prefix}/nginx.pid;
error_log ${options.prefix}/logs/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${options.prefix}/client_body;
  proxy_temp_path ${options.prefix}/proxy;
  fastcgi_temp_path ${options.prefix}/fastcgi;
  uwsgi_temp_path ${options.prefix}/uwsgi;
  scgi_temp_path ${options.prefix}/scgi;
  upstream staygate {
${servers}
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${options.port};
    location / {
      proxy_pass http://staygate;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_next_upstream error timeout http_502 http_503;
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`;
}

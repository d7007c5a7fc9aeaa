import type { JsonSchema } from './json-schema.ts';

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function schemaBlock(title: string, schema: unknown): string {
  return `<details><summary>${escapeHtml(title)}</summary><pre>${escapeHtml(JSON.stringify(schema, null, 2))}</pre></details>`;
}

function operationSection(path: string, method: string, operation: Record<string, unknown>): string {
  const security =
    Array.isArray(operation.security) && operation.security.length > 0 ? 'Bearer token' : 'Public';
  const parts = [
    `<h3><span class="method method-${escapeHtml(method)}">${escapeHtml(method.toUpperCase())}</span> <code>${escapeHtml(path)}</code></h3>`,
    `<p>${escapeHtml(String(operation.summary ?? ''))} <span class="auth">${security}</span></p>`,
  ];
  if (Array.isArray(operation.parameters)) parts.push(schemaBlock('Parameters', operation.parameters));
  const body = isRecord(operation.requestBody) ? operation.requestBody.content : undefined;
  if (isRecord(body) && isRecord(body['application/json'])) {
    parts.push(schemaBlock('Request body (application/json)', body['application/json'].schema));
  }
  if (isRecord(operation.responses)) {
    const rows = Object.entries(operation.responses).map(([status, response]) => {
      const description = isRecord(response) ? String(response.description ?? '') : '';
      return `<tr><td>${escapeHtml(status)}</td><td>${escapeHtml(description)}</td></tr>`;
    });
    parts.push(
      `<table><thead><tr><th>Status</th><th>Meaning</th></tr></thead><tbody>${rows.join('')}</tbody></table>`,
    );
    const success = Object.entries(operation.responses).find(([status]) => status.startsWith('2'))?.[1];
    const content =
      isRecord(success) && isRecord(success.content) ? success.content['application/json'] : undefined;
    if (isRecord(content)) parts.push(schemaBlock('Response body', content.schema));
  }
  return `<section class="operation">${parts.join('\n')}</section>`;
}

/**
 * The human-readable API reference, rendered on the server from the OpenAPI document: plain HTML
 * and one same-origin stylesheet, so it works under the console's CSP without scripts or a CDN.
 */
export function renderReferencePage(
  document: JsonSchema,
  stylesheetHref: string,
  documentHref: string,
): string {
  const info = isRecord(document.info) ? document.info : {};
  const sections: string[] = [];
  const paths = isRecord(document.paths) ? document.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isRecord(item)) continue;
    for (const [method, operation] of Object.entries(item)) {
      if (isRecord(operation)) sections.push(operationSection(path, method, operation));
    }
  }
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(String(info.title ?? 'API reference'))}</title>
<link rel="stylesheet" href="${escapeHtml(stylesheetHref)}">
</head>
<body>
<main>
<h1>${escapeHtml(String(info.title ?? 'API reference'))}</h1>
<p>${escapeHtml(String(info.description ?? ''))}</p>
<p><a href="${escapeHtml(documentHref)}">OpenAPI 3.1 document (JSON)</a></p>
${sections.join('\n')}
</main>
</body>
</html>
`;
}

export const REFERENCE_STYLESHEET = `body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1b1f24;background:#fafbfc}
main{max-width:960px;margin:0 auto;padding:2rem 1.5rem}
h1{font-size:1.6rem}
.operation{background:#fff;border:1px solid #d8dee4;border-radius:6px;padding:1rem 1.25rem;margin:1rem 0}
h3{font-size:1rem;margin:0 0 .5rem}
.method{display:inline-block;min-width:4.5rem;text-align:center;border-radius:4px;padding:.1rem .4rem;color:#fff;font-size:.8rem}
.method-get{background:#1f6feb}.method-post{background:#1a7f37}.method-put{background:#9a6700}.method-delete{background:#cf222e}
.auth{color:#57606a;font-size:.85rem;margin-left:.5rem}
table{border-collapse:collapse;margin:.5rem 0}
td,th{border:1px solid #d8dee4;padding:.25rem .6rem;text-align:left;font-size:.9rem}
pre{background:#f6f8fa;padding:.75rem;overflow:auto;font-size:.8rem}
summary{cursor:pointer;margin:.25rem 0}
`;

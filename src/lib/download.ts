import { apiFetch, type QueryValue } from './api-client.ts';

interface DownloadOptions {
  query?: Record<string, QueryValue>;
  /** MIME type asked for, e.g. `text/csv`. */
  accept: string;
  /** Used when the server names no file in Content-Disposition. */
  fallbackFileName: string;
}

// Characters no file system accepts in a name, and control characters.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
const UNSAFE_FILE_NAME_CHARACTERS = /[\u0000-\u001f\u007f<>:"/\\|?*]/g;

/** A file name with path separators and control characters replaced; null when nothing is left. */
export function safeFileName(name: string): string | null {
  const cleaned = name.replace(UNSAFE_FILE_NAME_CHARACTERS, '_').trim();
  return cleaned === '' || /^\.+$/.test(cleaned) ? null : cleaned;
}

/**
 * The file name of a `Content-Disposition: attachment` header: the UTF-8 `filename*` (RFC 6266) when
 * present, else `filename`. The name comes from the server, so path separators and control
 * characters are replaced before the browser sees it.
 */
export function fileNameFromContentDisposition(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (extended?.[1]) {
    try {
      return safeFileName(decodeURIComponent(extended[1].trim()));
    } catch {
      // A malformed percent-encoding: fall back to the plain parameter.
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(header);
  const name = plain?.[1]?.replace(/\\(.)/g, '$1') ?? plain?.[2]?.trim();
  return name ? safeFileName(name) : null;
}

/** Hands a file to the browser's downloads through a temporary link to an object URL. */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    // Revoked on the next task: the browser starts reading the URL after the click has returned.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}

/**
 * Downloads a file from the platform API with the user's bearer token, which a plain link cannot
 * carry. Failures are `ApiError`s like those of every other call.
 */
export async function downloadFromApi(path: string, options: DownloadOptions): Promise<void> {
  const response = await apiFetch('GET', path, { query: options.query, accept: options.accept });
  const blob = await response.blob();
  const fileName =
    fileNameFromContentDisposition(response.headers.get('Content-Disposition')) ?? options.fallbackFileName;
  saveFile(blob, fileName);
}

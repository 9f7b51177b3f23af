import type { AuditEntryView } from '../../subgraphs/audit/audit.schemas.js';
import type { HttpClient } from '../support/http-client.js';

export interface Page {
  total: number;
  items: AuditEntryView[];
}

/** Writes an entry over HTTP and returns what was stored; fails the test on anything but 200. */
export async function writeEntry(
  audit: HttpClient,
  token: string | undefined,
  body: Record<string, unknown>,
): Promise<AuditEntryView> {
  const response = await audit.post<AuditEntryView>('/', { token, body });
  if (response.status !== 200) throw new Error(`write failed: ${response.status} ${response.text}`);
  return response.body;
}

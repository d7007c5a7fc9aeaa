import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { apiPaths } from '../../../../contract/paths.ts';
import type { ClientTool, ClientToolFile, ClientToolOs } from '../../../../contract/schemas/client-tools.ts';
import { CachedDataNotice } from '../../../components/cached-data-notice.tsx';
import { QueryStatus } from '../../../components/list/query-status.tsx';
import { TableFrame } from '../../../components/list/table-frame.tsx';
import { PublicLayout } from '../../../components/public-layout.tsx';
import { TrustAgentPanel } from '../../../components/trust-agent/trust-agent-panel.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { formatByteSize } from '../../../lib/byte-size.ts';
import { desktopSystem, detectPlatform } from '../../../lib/platform.ts';
import { clientToolsQueryOptions } from '../queries.ts';
import { operatingSystemsFirst } from '../visitor-os.ts';
import './client-tools.css';
import { PageTitle } from '../../../components/page-title.tsx';

const OS_LABELS = {
  windows: msg`Windows`,
  mac: msg`macOS`,
  linux: msg`Linux`,
} as const;

/**
 * Certificate authority › Client tools (`/ca/client-tools`): the trust agent on this computer and the
 * catalogue. Open to everyone signed in: the catalogue itself is public.
 */
export function ClientToolsPage() {
  return (
    <section className="page client-tools" aria-labelledby="page-title">
      <PageTitle>
        <Trans>Client tools</Trans>
      </PageTitle>
      <TrustAgentPanel installHref={`#${CATALOGUE_ID}`} />
      <ClientToolsCatalogue />
    </section>
  );
}

/**
 * `/client-tools`, without a session: where the public pages' trust-agent gate sends a technician who
 * has no agent yet (enrollment, certificate install, the agent's sign-in), with the same catalogue.
 */
export function PublicClientToolsPage() {
  return (
    <PublicLayout wide title={<Trans>Client tools</Trans>}>
      <div className="client-tools">
        <TrustAgentPanel installHref={`#${CATALOGUE_ID}`} />
        <ClientToolsCatalogue />
      </div>
    </PublicLayout>
  );
}

const CATALOGUE_ID = 'client-tools-catalogue';

/**
 * The catalogue's files by operating system, the visitor's first, each with its size, its SHA-256 to
 * compare after downloading, and the download.
 */
function ClientToolsCatalogue() {
  const query = useQuery(clientToolsQueryOptions());
  return (
    <div id={CATALOGUE_ID}>
      <CachedDataNotice updatedAt={query.dataUpdatedAt} />
      <p className="client-tools__intro">
        <Trans>
          Download the tools for your computer. After downloading, compare the file's SHA-256 with the one
          shown here before you install it.
        </Trans>
      </p>
      <QueryStatus
        query={query}
        pendingText={<Trans>Loading the client tools…</Trans>}
        empty={{
          when: ({ items }) => items.length === 0,
          content: (
            <p>
              <Trans>No client tools are published yet.</Trans>
            </p>
          ),
        }}
      >
        {({ items }) => <Catalogue tools={items} />}
      </QueryStatus>
    </div>
  );
}

function Catalogue({ tools }: { tools: readonly ClientTool[] }) {
  const [copied, setCopied] = useState<{ name: string; ok: boolean } | null>(null);
  const own = desktopSystem(detectPlatform());
  const systems = operatingSystemsFirst(own).filter((os) => tools.some((tool) => tool.os === os));
  const copy = async (file: ClientToolFile) => {
    try {
      await navigator.clipboard.writeText(file.sha256);
      setCopied({ name: file.name, ok: true });
    } catch {
      setCopied({ name: file.name, ok: false });
    }
  };
  const fileName = copied?.name;
  return (
    <>
      <p role="status" className="client-tools__copied">
        {copied?.ok ? <Trans>SHA-256 of {fileName} copied.</Trans> : null}
        {copied && !copied.ok ? (
          <Trans>Could not copy the SHA-256 of {fileName}. Select it and copy it yourself.</Trans>
        ) : null}
      </p>
      {tools.some((tool) => tool.id.startsWith(TRUST_ASSISTANT_ID_PREFIX)) ? <TrustAssistantNotes /> : null}
      {systems.map((os) => (
        <OsSection
          key={os}
          os={os}
          own={os === own}
          tools={tools.filter((tool) => tool.os === os)}
          onCopy={copy}
        />
      ))}
    </>
  );
}

/** Our agent's catalogue ids: `trust-assistant-<os>-<arch>` (server/client-tools/catalogue.ts). */
const TRUST_ASSISTANT_ID_PREFIX = 'trust-assistant-';

/**
 * What a technician needs to know before installing the trust assistant packages, and what they
 * are not (decision 032): no runtime to install, tokens on Linux only, no publisher's signature.
 */
function TrustAssistantNotes() {
  return (
    <section className="client-tools__notes" aria-labelledby="client-tools-agent-notes">
      <h2 id="client-tools-agent-notes">
        <Trans>Installing the trust assistant</Trans>
      </h2>
      <ul>
        <li>
          <Trans>
            Each package carries its own runtime: Node.js and npm are not needed. Unpack it and run install.sh
            on Linux and macOS, or install.cmd on Windows; the README in the package explains each step.
          </Trans>
        </li>
        <li>
          <Trans>
            PKCS#11 tokens such as smart cards work with the Linux package. The macOS and Windows packages
            offer the software keystore only: tokens there need the trust assistant built on that system.
          </Trans>
        </li>
        <li>
          <Trans>
            The macOS and Windows executables carry no publisher signature: they are not notarised by Apple
            and have no Authenticode signature. The macOS installer signs the executable for that Mac only,
            and Windows may warn that the publisher is unknown. Compare the SHA-256 before installing.
          </Trans>
        </li>
      </ul>
    </section>
  );
}

function OsSection({
  os,
  own,
  tools,
  onCopy,
}: {
  os: ClientToolOs;
  own: boolean;
  tools: readonly ClientTool[];
  onCopy: (file: ClientToolFile) => void;
}) {
  const { i18n, t } = useLingui();
  const system = i18n._(OS_LABELS[os]);
  const headingId = `client-tools-${os}`;
  return (
    <section className="client-tools__os" aria-labelledby={headingId}>
      <h2 id={headingId}>{own ? <Trans>{system} (this computer)</Trans> : system}</h2>
      <TableFrame label={t`Client tools for ${system}`}>
        <table className="list-table client-tools__table">
          <thead>
            <tr>
              <th scope="col">
                <Trans>Tool</Trans>
              </th>
              <th scope="col">
                <Trans>Version</Trans>
              </th>
              <th scope="col">
                <Trans>Architecture</Trans>
              </th>
              <th scope="col">
                <Trans>File</Trans>
              </th>
              <th scope="col">
                <Trans>SHA-256</Trans>
              </th>
              <th scope="col" className="list-table__action">
                <span className="visually-hidden">
                  <Trans>Download</Trans>
                </span>
              </th>
            </tr>
          </thead>
          <tbody>
            {tools.flatMap((tool) =>
              tool.files.map((file) => {
                const fileName = file.name;
                return (
                  <tr key={`${tool.id}/${file.folder}/${file.name}`}>
                    <th scope="row">{tool.name}</th>
                    <td>{file.folder}</td>
                    <td>{tool.arch === 'any' ? <Trans>Any</Trans> : tool.arch}</td>
                    <td>
                      <span className="client-tools__file">{file.name}</span>
                      <span className="client-tools__detail">
                        {file.label} · {formatByteSize(file.size, i18n.locale)}
                      </span>
                    </td>
                    <td>
                      <code className="client-tools__hash">{file.sha256}</code>
                      <Button
                        variant="secondary"
                        className="client-tools__copy"
                        aria-label={t`Copy the SHA-256 of ${fileName}`}
                        onClick={() => onCopy(file)}
                      >
                        <Trans>Copy</Trans>
                      </Button>
                    </td>
                    <td className="list-table__action">
                      <a
                        className="button button--primary"
                        href={apiPaths.clientTools.file(tool.id, file.folder, file.name)}
                        download={file.name}
                      >
                        <Trans>
                          Download <span className="visually-hidden">{fileName}</span>
                        </Trans>
                      </a>
                    </td>
                  </tr>
                );
              }),
            )}
          </tbody>
        </table>
      </TableFrame>
    </section>
  );
}

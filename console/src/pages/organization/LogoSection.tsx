// The organization's logo (PUT/GET /api/v2/organizations/{org_id}/logo): the current one, and a new
// one chosen, previewed, then uploaded. The server decides the type from the bytes (PNG, JPEG, GIF or
// WebP; 415 otherwise) and refuses a file over its limit (LIMIT_LOGO_BYTES, 2 MiB unless configured:
// 413 with the exact figure), which is said as it answers.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { FileTrigger } from 'react-aria-components';
import { csrfHeaders, reportSessionEnded } from '../../api/client';
import { ApiError, errorOf, UNREACHABLE } from '../../api/errors';
import { ErrorNote, SuccessNote } from '../../ui/Feedback';
import { Button } from '../../ui/Fields';
import { organizationKeys, type Organization } from './organization-api';

const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

async function uploadLogo(organizationId: number, file: File): Promise<void> {
  const form = new FormData();
  form.append('file', file, file.name);
  let response: Response;
  try {
    response = await fetch(`/api/v2/organizations/${organizationId}/logo`, { method: 'PUT', body: form, headers: csrfHeaders(), credentials: 'same-origin' });
  } catch {
    throw new ApiError(UNREACHABLE, 0);
  }
  if (response.ok) return;
  if (response.status === 401) reportSessionEnded();
  throw errorOf(await response.json().catch(() => undefined), response);
}

function usePreview(file: File | null): string | undefined {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (file === null) return;
    const created = URL.createObjectURL(file);
    setUrl(created);
    return () => {
      URL.revokeObjectURL(created);
      setUrl(undefined);
    };
  }, [file]);
  return url;
}

export function LogoSection({ organization, mayChange }: { organization: Organization; mayChange: boolean }) {
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [typeRefusal, setTypeRefusal] = useState<string | null>(null);
  const preview = usePreview(file);
  const upload = useMutation({
    mutationFn: (chosen: File) => uploadLogo(organization.id, chosen),
    onSuccess: async () => {
      setFile(null);
      await queryClient.invalidateQueries({ queryKey: organizationKeys.organization(organization.id) });
    },
  });
  // The logo's address changes with the organization, so a new logo is fetched, not the cached one.
  const current = organization.logo_url === null ? null : `${organization.logo_url}?v=${encodeURIComponent(organization.modified_on)}`;
  return (
    <section className="card settings-card" aria-labelledby="organization-logo-heading">
      <h2 id="organization-logo-heading">Logo</h2>
      <div className="logo-row">
        <figure className="logo-figure">
          {current === null ? <div className="logo-empty">No logo</div> : <img src={current} alt={`Current logo of ${organization.name}`} className="logo-image" />}
          <figcaption className="muted text-small">Current</figcaption>
        </figure>
        {preview !== undefined && (
          <figure className="logo-figure">
            <img src={preview} alt="Preview of the new logo" className="logo-image" />
            <figcaption className="muted text-small">New: {file?.name}</figcaption>
          </figure>
        )}
      </div>
      <p className="muted text-small" id="logo-limits">
        PNG, JPEG, GIF or WebP, at most 2 MiB (unless your server allows more). It replaces the current logo.
      </p>
      {mayChange && (
        <div className="actions">
          <FileTrigger
            acceptedFileTypes={LOGO_TYPES}
            onSelect={(files) => {
              const chosen = files?.[0];
              if (chosen === undefined) return;
              upload.reset();
              if (chosen.type !== '' && !LOGO_TYPES.includes(chosen.type)) {
                setFile(null);
                setTypeRefusal(`${chosen.name} is not a PNG, JPEG, GIF or WebP image.`);
                return;
              }
              setTypeRefusal(null);
              setFile(chosen);
            }}
          >
            <Button aria-describedby="logo-limits">Choose image</Button>
          </FileTrigger>
          {file !== null && (
            <>
              <Button variant="primary" isPending={upload.isPending} onPress={() => upload.mutate(file)}>
                Upload logo
              </Button>
              <Button variant="quiet" onPress={() => setFile(null)} isDisabled={upload.isPending}>
                Cancel
              </Button>
            </>
          )}
        </div>
      )}
      <ErrorNote error={typeRefusal ?? upload.error} title="Logo not uploaded:" />
      {upload.isSuccess && <SuccessNote>Logo uploaded.</SuccessNote>}
    </section>
  );
}

// The caller's organization: its settings, users, logo and model deployment. Every method takes the
// organization id of the path and answers 404 unless it is the caller's own.
import { now } from '../../clock.js';
import { BadRequest, NotFound, UnsupportedMediaType } from '../../errors.js';
import { sentFields } from '../../fields.js';
import type { ListSlice, ListWindow } from '../../pagination.js';
import type { UnitOfWork } from '../../repositories.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { detectImageType } from '../../storage/image-type.js';
import type { Actor } from '../auth/actor.js';
import { authorize } from '../auth/roles.js';
import type { UserFilter } from '../users/users.repo.js';
import type { UserView } from '../users/users.schemas.js';
import { listUsers } from '../users/users.service.js';
import { organizationPolicy } from './organization.policy.js';
import { MODEL_PURPOSES, type ModelDeploymentRow, type OrganizationWithAudit } from './organizations.repo.js';
import type { ModelDeploymentView, OrganizationView, UpdateModelDeploymentInput } from './organizations.schemas.js';

const logoUrl = (organizationId: number) => `/api/v2/organizations/${organizationId}/logo`;

function presentOrganization(organization: OrganizationWithAudit): OrganizationView {
  return {
    id: organization.id,
    name: organization.name,
    description: organization.description,
    logo_url: organization.logo_key === null ? null : logoUrl(organization.id),
    logo_content_type: organization.logo_content_type,
    created_on: organization.created_on,
    modified_on: organization.modified_on,
    modified_by: organization.modified_by_email,
  };
}

function presentModelDeployment(row: ModelDeploymentRow | undefined): ModelDeploymentView {
  return {
    chat: row?.chat ?? null,
    embedding: row?.embedding ?? null,
    image: row?.image ?? null,
    judge: row?.judge ?? null,
    modified_on: row?.modified_on ?? null,
    modified_by: row?.modified_by_email ?? null,
  };
}

/** Only the caller's own organization exists, as far as the caller can tell. */
export function requireOwnOrganization(actor: Actor, organizationId: number): void {
  if (organizationId !== actor.organizationId) throw new NotFound('organization', organizationId);
}

export class OrganizationsService {
  constructor(
    private readonly store: UnitOfWork,
    private readonly blobs: BlobStore,
  ) {}

  private async requireOrganization(actor: Actor, organizationId: number): Promise<OrganizationWithAudit> {
    requireOwnOrganization(actor, organizationId);
    const organization = await this.store.repos.organizations.findWithAudit(organizationId);
    if (!organization) throw new NotFound('organization', organizationId);
    return organization;
  }

  async get(actor: Actor, organizationId: number): Promise<OrganizationView> {
    return presentOrganization(await this.requireOrganization(actor, organizationId));
  }

  async update(actor: Actor, organizationId: number, input: { name?: string | undefined; description?: string | undefined }): Promise<OrganizationView> {
    await this.requireOrganization(actor, organizationId);
    authorize(organizationPolicy.mayChange(actor), 'Only owners and admins may change the organization');
    const fields = sentFields(input, ['name', 'description']);
    await this.store.repos.organizations.update(organizationId, { ...fields, modified_on: now(), modified_by: actor.userId });
    return this.get(actor, organizationId);
  }

  async users(actor: Actor, organizationId: number, filter: UserFilter, window: ListWindow): Promise<ListSlice<UserView>> {
    requireOwnOrganization(actor, organizationId);
    return listUsers(this.store.repos, organizationId, filter, window);
  }

  /**
   * Replaces the logo. The caller is checked before the upload is read, so a refused request costs
   * no buffering; the type comes from the bytes. The old image is removed once the new one is recorded.
   */
  async setLogo(actor: Actor, organizationId: number, readUpload: () => Promise<Buffer | undefined>) {
    await this.requireOrganization(actor, organizationId);
    authorize(organizationPolicy.mayChange(actor), 'Only owners and admins may change the logo');
    const bytes = await readUpload();
    if (!bytes || bytes.length === 0) throw new BadRequest('Send the logo as a non-empty file in multipart/form-data', [{ pointer: '/body/file', message: 'is required' }]);
    const contentType = detectImageType(bytes);
    if (!contentType) throw new UnsupportedMediaType('The logo must be a PNG, JPEG, GIF or WebP image');
    const key = await this.blobs.put(bytes);
    let previousKey: string | null;
    try {
      // Under the organization's lock, so that of two uploads at once each removes the logo it replaced.
      previousKey = await this.store.transaction(async ({ organizations }) => {
        await organizations.lock(organizationId);
        const previous = (await organizations.findById(organizationId))?.logo_key ?? null;
        await organizations.update(organizationId, { logo_key: key, logo_content_type: contentType, modified_on: now(), modified_by: actor.userId });
        return previous;
      });
    } catch (error) {
      await this.blobs.delete(key);
      throw error;
    }
    if (previousKey !== null) await this.blobs.delete(previousKey);
    return { logo_url: logoUrl(organizationId), logo_content_type: contentType, size: bytes.length };
  }

  async logo(actor: Actor, organizationId: number): Promise<{ bytes: Buffer; contentType: string }> {
    const organization = await this.requireOrganization(actor, organizationId);
    const bytes = organization.logo_key === null ? undefined : await this.blobs.get(organization.logo_key);
    if (!bytes || organization.logo_content_type === null) throw new NotFound('logo');
    return { bytes, contentType: organization.logo_content_type };
  }

  async modelDeployment(actor: Actor, organizationId: number): Promise<ModelDeploymentView> {
    requireOwnOrganization(actor, organizationId);
    return presentModelDeployment(await this.store.repos.organizations.findModelDeployment(organizationId));
  }

  async setModelDeployment(actor: Actor, organizationId: number, input: UpdateModelDeploymentInput): Promise<ModelDeploymentView> {
    requireOwnOrganization(actor, organizationId);
    authorize(organizationPolicy.mayChange(actor), 'Only owners and admins may set the model deployment');
    await this.store.repos.organizations.saveModelDeployment(organizationId, sentFields(input, MODEL_PURPOSES), now(), actor.userId);
    return this.modelDeployment(actor, organizationId);
  }
}

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { BadRequest, PayloadTooLarge } from '../../errors.js';
import { Envelope, Page, ok, responses } from '../../http/schemas.js';
import { asPage, windowOf } from '../../pagination.js';
import { UserSchema } from '../users/users.schemas.js';
import {
  LogoResponse,
  LogoUploadContent,
  LogoUploadedSchema,
  ModelDeploymentSchema,
  OrganizationParams,
  OrganizationSchema,
  UpdateModelDeploymentBody,
  UpdateOrganizationBody,
  organizationUsersQuery,
} from './organizations.schemas.js';

const tags = ['organizations'];

export const organizationsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const organizations = app.services.organizations;

  app.get(
    '/api/v2/organizations/:org_id',
    { schema: { operationId: 'getOrganization', tags, summary: 'One organization', params: OrganizationParams, response: responses({ 200: Envelope(OrganizationSchema) }, [404]) } },
    async (request) => ok('Organization', await organizations.get(request.actor, request.params.org_id)),
  );

  app.put(
    '/api/v2/organizations/:org_id',
    {
      schema: {
        operationId: 'updateOrganization',
        tags,
        summary: 'Update an organization',
        params: OrganizationParams,
        body: UpdateOrganizationBody,
        response: responses({ 200: Envelope(OrganizationSchema) }, [403, 404]),
      },
    },
    async (request) => ok('Organization updated', await organizations.update(request.actor, request.params.org_id, request.body)),
  );

  app.get(
    '/api/v2/organizations/:org_id/users',
    {
      schema: {
        operationId: 'listOrganizationUsers',
        tags,
        summary: 'Users of an organization',
        params: OrganizationParams,
        querystring: organizationUsersQuery(app.config.limits.pageSizeMax),
        response: responses({ 200: Envelope(Page(UserSchema)) }, [404]),
      },
    },
    async (request) => {
      const { q, is_active, ...page } = request.query;
      return ok('Users', asPage(await organizations.users(request.actor, request.params.org_id, { q, isActive: is_active }, windowOf(page)), page));
    },
  );

  app.put(
    '/api/v2/organizations/:org_id/logo',
    {
      schema: {
        operationId: 'setOrganizationLogo',
        tags,
        summary: "Upload the organization's logo",
        description:
          `multipart/form-data with one file. PNG, JPEG, GIF or WebP, decided from the content (415 otherwise); ` +
          `at most LIMIT_LOGO_BYTES (${app.config.limits.logoBytes} bytes here; 413 above). Replaces the previous logo.`,
        params: OrganizationParams,
        consumes: ['multipart/form-data'],
        'x-document': { requestContent: LogoUploadContent },
        response: responses({ 200: Envelope(LogoUploadedSchema) }, [403, 404, 413, 415]),
      },
    },
    async (request) => {
      const readUpload = async () => {
        if (!request.isMultipart()) throw new BadRequest('Send the logo as multipart/form-data with one file');
        const file = await request.file({ limits: { fileSize: app.config.limits.logoBytes, files: 1 } });
        try {
          return await file?.toBuffer();
        } catch (error) {
          if ((error as { code?: unknown }).code === 'FST_REQ_FILE_TOO_LARGE') throw new PayloadTooLarge(`The logo is larger than ${app.config.limits.logoBytes} bytes`);
          throw error;
        }
      };
      return ok('Logo uploaded', await organizations.setLogo(request.actor, request.params.org_id, readUpload));
    },
  );

  app.get(
    '/api/v2/organizations/:org_id/logo',
    {
      schema: {
        operationId: 'getOrganizationLogo',
        tags,
        summary: "The organization's logo",
        description: 'The image with the type decided when it was uploaded; 404 while there is none.',
        params: OrganizationParams,
        response: responses({ 200: LogoResponse }, [404]),
      },
    },
    async (request, reply) => {
      const logo = await organizations.logo(request.actor, request.params.org_id);
      return reply.type(logo.contentType).header('cache-control', 'private, no-cache').send(logo.bytes);
    },
  );

  app.get(
    '/api/v2/organizations/:org_id/model-deployment',
    {
      schema: {
        operationId: 'getModelDeployment',
        tags,
        summary: 'Which LLM configuration serves each purpose (chat, embedding, image, judge)',
        params: OrganizationParams,
        response: responses({ 200: Envelope(ModelDeploymentSchema) }, [404]),
      },
    },
    async (request) => ok('Model deployment', await organizations.modelDeployment(request.actor, request.params.org_id)),
  );

  app.put(
    '/api/v2/organizations/:org_id/model-deployment',
    {
      schema: {
        operationId: 'setModelDeployment',
        tags,
        summary: 'Set the model deployment',
        description: 'Each purpose names an LLM configuration by id, or null for none.',
        params: OrganizationParams,
        body: UpdateModelDeploymentBody,
        response: responses({ 200: Envelope(ModelDeploymentSchema) }, [403, 404]),
      },
    },
    async (request) => ok('Model deployment set', await organizations.setModelDeployment(request.actor, request.params.org_id, request.body)),
  );
};

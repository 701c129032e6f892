import { Type, type Static } from '@sinclair/typebox';
import { Id, IdParams, List, Timestamp, mediaWithExample, named } from '../../http/schemas.js';

export const ThreadAttachmentParams = IdParams('thread_id', 'attachment_id');

export const AttachmentSchema = named(
  'ThreadAttachment',
  Type.Object({
    id: Id('Attachment identifier'),
    thread_id: Id('The thread the file was given in'),
    filename: Type.String({ description: 'The file’s name as sent, without folders or control characters' }),
    type: Type.String({ description: 'The kind of content, decided from the bytes: pdf, docx, html, md, txt, csv or json' }),
    size_bytes: Type.Integer({ minimum: 0, description: 'Size of the file as given' }),
    characters: Type.Integer({ minimum: 0, description: 'Characters of its extracted text: what the agent can read' }),
    created_on: Timestamp('When the file was given'),
    created_by: Type.String({ description: 'E-mail of who gave it (the thread’s owner)' }),
  }),
  {
    id: 12,
    thread_id: 7,
    filename: 'contract.pdf',
    type: 'pdf',
    size_bytes: 48_213,
    characters: 18_220,
    created_on: '2026-11-23T10:15:30.123Z',
    created_by: 'ada@example.com',
  },
);
export type AttachmentView = Static<typeof AttachmentSchema>;

export const AttachmentList = List(AttachmentSchema);

/** The multipart form, for the OpenAPI document (the route reads the parts itself). */
export const AttachmentUploadForm = Type.Object(
  {
    files: Type.Array(Type.String({ format: 'binary', description: 'A file; its name is kept for display' }), {
      minItems: 1,
      description: 'One part per file (any part name), each at most LIMIT_UPLOAD_FILE_BYTES, at most LIMIT_UPLOAD_FILES in all',
    }),
  },
  { title: 'ThreadAttachmentUploadForm' },
);

/** The multipart/form-data media type of an upload of attachments, for x-document. */
export const AttachmentUploadContent = {
  'multipart/form-data': mediaWithExample(
    AttachmentUploadForm,
    { files: ['Order 1042: 3 chairs, delivered 2026-11-20, damaged on arrival.'] },
    { encoding: { files: { contentType: '*/*' } } },
  ),
};

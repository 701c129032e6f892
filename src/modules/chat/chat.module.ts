import { detectDocumentType } from '../../ingest/ingestion.js';
import type { SharedServices } from '../../shared-services.js';
import type { AppModule } from '../app-module.js';
import { fileTextReader } from '../attachments/attachment-text.js';
import { attachmentsRoutes } from '../attachments/attachments.routes.js';
import { AttachmentsService } from '../attachments/attachments.service.js';
import { chatLogsRoutes } from './chat-logs.routes.js';
import { ChatLogsService } from './chat-logs.service.js';
import { feedbackRoutes } from './feedback.routes.js';
import { FeedbackService } from './feedback.service.js';
import { responsesRoutes } from './responses.routes.js';
import { ResponsesService } from './responses.service.js';
import { threadsRoutes } from './threads.routes.js';
import { ThreadsService } from './threads.service.js';

/** Threads with their attached files (src/modules/attachments), responses, feedback and chat logs. */
export const chatModule: AppModule = {
  name: 'chat',
  routes: [threadsRoutes, attachmentsRoutes, responsesRoutes, feedbackRoutes, chatLogsRoutes],
};

export function buildChatServices({ store, ingestion }: SharedServices) {
  const responses = new ResponsesService(store);
  return {
    threads: new ThreadsService(store),
    attachments: new AttachmentsService(store, fileTextReader(ingestion, detectDocumentType)),
    responses,
    feedback: new FeedbackService(store, responses),
    chatLogs: new ChatLogsService(store),
  };
}

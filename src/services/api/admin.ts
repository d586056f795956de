import type { EndpointInput } from '../../contract/endpoints';
import { call, type CallOptions } from '../http';

/** The admin console's calls (role `admin` only: anyone else is answered 403). */

export const listAdminUsers = (request: EndpointInput<'adminUserList'>, options?: CallOptions) => call('adminUserList', request, options);

export const updateAdminUser = (request: EndpointInput<'adminUserUpdate'>, options?: CallOptions) => call('adminUserUpdate', request, options);

export const signOutAdminUser = (id: string, options?: CallOptions) => call('adminUserSignOut', { id }, options);

export const issueResetLink = (id: string, options?: CallOptions) => call('adminUserResetLink', { id }, options);

export const listOrganisations = (options?: CallOptions) => call('adminOrganisationList', undefined, options);

export const createOrganisation = (name: string, options?: CallOptions) => call('adminOrganisationCreate', { name }, options);

export const listInvitations = (options?: CallOptions) => call('adminInvitationList', undefined, options);

export const createInvitation = (request: EndpointInput<'adminInvitationCreate'>, options?: CallOptions) =>
  call('adminInvitationCreate', request, options);

export const revokeInvitation = (id: string, options?: CallOptions) => call('adminInvitationRevoke', { id }, options);

export const listConnectors = (companyId: string, options?: CallOptions) => call('adminConnectorList', { companyId }, options);

export const setConnector = (request: EndpointInput<'adminConnectorSet'>, options?: CallOptions) => call('adminConnectorSet', request, options);

export const clearConnector = (request: EndpointInput<'adminConnectorClear'>, options?: CallOptions) => call('adminConnectorClear', request, options);

export const getUsage = (days: number, options?: CallOptions) => call('adminUsage', { days }, options);

export const listAudit = (request: EndpointInput<'adminAuditList'>, options?: CallOptions) => call('adminAuditList', request, options);

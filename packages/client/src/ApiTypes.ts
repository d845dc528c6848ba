/**
 * The public API's types, generated from @workbay/http's HttpApi definition by
 * packages/client/scripts/generate.ts. Do not edit: run `npm run generate --workspace packages/client`.
 */

export interface paths {
    "/api/v2": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["general.root"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/.well-known/oauth-authorization-server": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["oauth2Discovery.authorizationServer"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/.well-known/oauth-protected-resource": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["oauth2Discovery.protectedResource"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/appearance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["enterprise.appearance"];
        put: operations["enterprise.updateAppearance"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/applications/auth-redirect": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["applications.authRedirect"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/applications/host": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["applications.host"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["audit.auditLogs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/auth/scopes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["authorization.scopes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/authcheck": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["session.authcheck"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/buildinfo": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["general.buildInfo"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/connectionlog": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["audit.connectionLogs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/csp/reports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["deployment.cspReport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/debug/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["debug.health"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/debug/health/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["debug.settings"];
        put: operations["debug.updateSettings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/debug/ws": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["debug.ws"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/deployment/config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["deployment.config"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/deployment/ssh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["deployment.ssh"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/deployment/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["deployment.stats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/derp-map": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["tailnet.derpMap"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/entitlements": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["enterprise.entitlements"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/experiments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["deployment.experiments"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/experiments/available": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["deployment.availableExperiments"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/external-auth": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["externalAuth.list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/external-auth/{externalauth}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["externalAuth.get"];
        put?: never;
        post?: never;
        delete: operations["externalAuth.unlink"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/external-auth/{externalauth}/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["externalAuth.callback"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/external-auth/{externalauth}/device": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["externalAuth.device"];
        put?: never;
        post: operations["externalAuth.deviceExchange"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/files": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["files.upload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/files/{fileID}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["files.get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/groups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["groups.list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/groups/{group}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["groups.get"];
        put?: never;
        post?: never;
        delete: operations["groups.delete"];
        options?: never;
        head?: never;
        patch: operations["groups.update"];
        trace?: never;
    };
    "/api/v2/groups/{group}/ai/budget": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["groups.getAiBudget"];
        put: operations["groups.setAiBudget"];
        post?: never;
        delete: operations["groups.deleteAiBudget"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/groups/{group}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["groups.listMembers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/init-script/{os}/{arch}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["agentBinaries.initScript"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/insights/daus": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["insights.daus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/insights/templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["insights.templates"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/insights/user-activity": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["insights.userActivity"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/insights/user-latency": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["insights.userLatency"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/insights/user-status-counts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["insights.userStatusCounts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/licenses": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["enterprise.licenses"];
        put?: never;
        post: operations["enterprise.addLicense"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/licenses/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete: operations["enterprise.deleteLicense"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/licenses/refresh-entitlements": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["enterprise.refreshEntitlements"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/notifications/custom": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["notifications.sendCustom"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/notifications/dispatch-methods": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["notifications.dispatchMethods"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/notifications/inbox": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["inbox.list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/notifications/inbox/{id}/read-status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: operations["inbox.setReadStatus"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/notifications/inbox/mark-all-as-read": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: operations["inbox.markAllRead"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/notifications/inbox/watch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["inbox.watch"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/notifications/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["notifications.getSettings"];
        put: operations["notifications.updateSettings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/notifications/templates/{notification_template}/method": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: operations["notifications.updateTemplateMethod"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/notifications/templates/custom": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["notifications.customTemplates"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/notifications/templates/system": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["notifications.systemTemplates"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/notifications/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["notifications.sendTest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/oauth2-provider/apps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["oauth2Apps.list"];
        put?: never;
        post: operations["oauth2Apps.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/oauth2-provider/apps/{app}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["oauth2Apps.get"];
        put: operations["oauth2Apps.update"];
        post?: never;
        delete: operations["oauth2Apps.delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/oauth2-provider/apps/{app}/secrets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["oauth2Apps.listSecrets"];
        put?: never;
        post: operations["oauth2Apps.createSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/oauth2-provider/apps/{app}/secrets/{secretID}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete: operations["oauth2Apps.deleteSecret"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/oauth2-provider/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["oauth2Apps.getSettings"];
        put: operations["oauth2Apps.updateSettings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/oauth2/authorize": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["oauth2.authorizePage"];
        put?: never;
        post: operations["oauth2.authorize"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/oauth2/clients/{client_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["oauth2.getClient"];
        put: operations["oauth2.updateClient"];
        post?: never;
        delete: operations["oauth2.deleteClient"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/oauth2/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["oauth2.register"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/oauth2/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["oauth2.revoke"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/oauth2/sign-in": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["oauth2.signIn"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/oauth2/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["oauth2.token"];
        delete: operations["oauth2.revokeApp"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/organizations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["organizations.list"];
        put?: never;
        post: operations["organizations.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/organizations/{organization}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["organizations.get"];
        put?: never;
        post?: never;
        delete: operations["organizations.delete"];
        options?: never;
        head?: never;
        patch: operations["organizations.update"];
        trace?: never;
    };
    "/api/v2/organizations/{organization}/groups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["groups.listByOrganization"];
        put?: never;
        post: operations["groups.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/organizations/{organization}/groups/{groupName}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["groups.getByName"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/organizations/{organization}/groups/{groupName}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["groups.listMembersByName"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/organizations/{organization}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["organizations.listMembers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/organizations/{organization}/members/{user}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["organizations.getMember"];
        put?: never;
        post: operations["organizations.addMember"];
        delete: operations["organizations.removeMember"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/organizations/{organization}/members/{user}/roles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: operations["organizations.updateMemberRoles"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/organizations/{organization}/members/{user}/workspace-quota": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["groups.workspaceQuotaByOrganization"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/organizations/{organization}/members/{user}/workspaces": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["workspaces.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/organizations/{organization}/members/{user}/workspaces/available-users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["workspaces.availableUsers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/organizations/{organization}/members/roles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["organizations.assignableRoles"];
        put: operations["organizations.updateRole"];
        post: operations["organizations.createRole"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/organizations/{organization}/members/roles/{roleName}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete: operations["organizations.deleteRole"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/organizations/{organization}/paginated-groups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["groups.listPaginated"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/organizations/{organization}/paginated-members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["organizations.paginatedMembers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/organizations/{organization}/provisionerdaemons": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["provisionerJobs.listDaemons"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/organizations/{organization}/provisionerdaemons/serve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["provisionerDaemonServe.serve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/organizations/{organization}/provisionerhosts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["provisionerJobs.listHosts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/organizations/{organization}/provisionerhosts/{host}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch: operations["provisionerJobs.patchHost"];
        trace?: never;
    };
    "/api/v2/organizations/{organization}/provisionerjobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["provisionerJobs.list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/organizations/{organization}/provisionerjobs/{job}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["provisionerJobs.get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/organizations/{organization}/provisionerkeys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["provisionerKeys.list"];
        put?: never;
        post: operations["provisionerKeys.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/organizations/{organization}/provisionerkeys/{provisionerkey}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete: operations["provisionerKeys.delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/organizations/{organization}/provisionerkeys/daemons": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["provisionerKeys.listDaemons"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/organizations/{organization}/settings/idpsync/available-fields": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["idpSync.organizationAvailableFields"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/organizations/{organization}/settings/idpsync/field-values": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["idpSync.organizationFieldValues"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/organizations/{organization}/settings/idpsync/groups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["idpSync.getGroupSync"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch: operations["idpSync.patchGroupSync"];
        trace?: never;
    };
    "/api/v2/organizations/{organization}/settings/idpsync/groups/config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch: operations["idpSync.patchGroupSyncConfig"];
        trace?: never;
    };
    "/api/v2/organizations/{organization}/settings/idpsync/groups/mapping": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch: operations["idpSync.patchGroupSyncMapping"];
        trace?: never;
    };
    "/api/v2/organizations/{organization}/settings/idpsync/roles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["idpSync.getRoleSync"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch: operations["idpSync.patchRoleSync"];
        trace?: never;
    };
    "/api/v2/organizations/{organization}/settings/idpsync/roles/config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch: operations["idpSync.patchRoleSyncConfig"];
        trace?: never;
    };
    "/api/v2/organizations/{organization}/settings/idpsync/roles/mapping": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch: operations["idpSync.patchRoleSyncMapping"];
        trace?: never;
    };
    "/api/v2/organizations/{organization}/settings/workspace-sharing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["organizations.getWorkspaceSharing"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch: operations["organizations.updateWorkspaceSharing"];
        trace?: never;
    };
    "/api/v2/organizations/{organization}/templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["templates.listByOrganization"];
        put?: never;
        post: operations["templates.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/organizations/{organization}/templates/{templatename}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["templates.getByName"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/organizations/{organization}/templates/{templatename}/versions/{templateversionname}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["templateVersions.getByOrganizationAndName"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/organizations/{organization}/templates/{templatename}/versions/{templateversionname}/previous": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["templateVersions.previous"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/organizations/{organization}/templates/examples": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["templates.examplesByOrganization"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/organizations/{organization}/templateversions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["templateVersions.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/organizations/{organization}/workspacemoves/{move}/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["workspaceMoveLink.link"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/prebuilds/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["templates.getPrebuildsSettings"];
        put: operations["templates.updatePrebuildsSettings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/provisionerkeys/{provisionerkey}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["provisionerDaemonServe.key"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/regions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["workspaceProxies.regions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/replicas": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["enterprise.replicas"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/settings/idpsync/available-fields": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["idpSync.availableFields"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/settings/idpsync/field-values": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["idpSync.fieldValues"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/settings/idpsync/organization": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["idpSync.getOrganizationSync"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch: operations["idpSync.patchOrganizationSync"];
        trace?: never;
    };
    "/api/v2/settings/idpsync/organization/config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch: operations["idpSync.patchOrganizationSyncConfig"];
        trace?: never;
    };
    "/api/v2/settings/idpsync/organization/mapping": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch: operations["idpSync.patchOrganizationSyncMapping"];
        trace?: never;
    };
    "/api/v2/tailnet": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["tailnet.coordinate"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/tasks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["tasks.list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/tasks/{user}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["tasks.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/tasks/{user}/{task}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["tasks.get"];
        put?: never;
        post?: never;
        delete: operations["tasks.delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/tasks/{user}/{task}/input": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch: operations["tasks.updateInput"];
        trace?: never;
    };
    "/api/v2/tasks/{user}/{task}/logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["tasks.logs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/tasks/{user}/{task}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["tasks.pause"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/tasks/{user}/{task}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["tasks.resume"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/tasks/{user}/{task}/send": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["tasks.send"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["templates.list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/templates/{template}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["templates.get"];
        put?: never;
        post?: never;
        delete: operations["templates.delete"];
        options?: never;
        head?: never;
        patch: operations["templates.update"];
        trace?: never;
    };
    "/api/v2/templates/{template}/acl": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["templates.getAcl"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch: operations["templates.updateAcl"];
        trace?: never;
    };
    "/api/v2/templates/{template}/acl/available": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["templates.aclAvailable"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/templates/{template}/daus": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["insights.templateDaus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/templates/{template}/prebuilds/invalidate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["templates.invalidatePresets"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/templates/{template}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["templateVersions.listByTemplate"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch: operations["templateVersions.promote"];
        trace?: never;
    };
    "/api/v2/templates/{template}/versions/{templateversionname}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["templateVersions.getByTemplateAndName"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/templates/{template}/versions/archive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["templateVersions.archiveUnused"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/templates/examples": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["templates.examples"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/templateversions/{templateversion}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["templateVersions.get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch: operations["templateVersions.update"];
        trace?: never;
    };
    "/api/v2/templateversions/{templateversion}/archive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["templateVersions.archive"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/templateversions/{templateversion}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch: operations["templateVersions.cancel"];
        trace?: never;
    };
    "/api/v2/templateversions/{templateversion}/dry-run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["templateVersions.createDryRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/templateversions/{templateversion}/dry-run/{jobID}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["templateVersions.getDryRun"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/templateversions/{templateversion}/dry-run/{jobID}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch: operations["templateVersions.cancelDryRun"];
        trace?: never;
    };
    "/api/v2/templateversions/{templateversion}/dry-run/{jobID}/logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["templateVersions.dryRunLogs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/templateversions/{templateversion}/dry-run/{jobID}/matched-provisioners": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["templateVersions.dryRunMatchedProvisioners"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/templateversions/{templateversion}/dry-run/{jobID}/resources": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["templateVersions.dryRunResources"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/templateversions/{templateversion}/dynamic-parameters": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["templateVersions.dynamicParameters"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/templateversions/{templateversion}/dynamic-parameters/evaluate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["templateVersions.evaluateDynamicParameters"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/templateversions/{templateversion}/external-auth": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["templateVersions.externalAuth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/templateversions/{templateversion}/logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["templateVersions.logs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/templateversions/{templateversion}/parameters": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["templateVersions.removedParameters"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/templateversions/{templateversion}/presets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["templateVersions.presets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/templateversions/{templateversion}/resources": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["templateVersions.resources"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/templateversions/{templateversion}/rich-parameters": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["templateVersions.richParameters"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/templateversions/{templateversion}/schema": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["templateVersions.removedSchema"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/templateversions/{templateversion}/unarchive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["templateVersions.unarchive"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/templateversions/{templateversion}/variables": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["templateVersions.variables"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/updatecheck": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["general.updateCheck"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["users.list"];
        put?: never;
        post: operations["users.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/users/{user}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["users.get"];
        put?: never;
        post?: never;
        delete: operations["users.delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/users/{user}/appearance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["users.getAppearance"];
        put: operations["users.updateAppearance"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/users/{user}/autofill-parameters": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["users.autofillParameters"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/users/{user}/convert-login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["session.convertLogin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/users/{user}/gitsshkey": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["users.getGitSshKey"];
        put: operations["users.regenerateGitSshKey"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/users/{user}/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["users.createSessionKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/users/{user}/keys/{keyid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["users.getKey"];
        put?: never;
        post?: never;
        delete: operations["users.deleteKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/users/{user}/keys/{keyid}/expire": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: operations["users.expireKey"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/users/{user}/keys/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["users.listTokens"];
        put?: never;
        post: operations["users.createToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/users/{user}/keys/tokens/{keyname}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["users.getTokenByName"];
        put?: never;
        post?: never;
        delete: operations["users.deleteTokenByName"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/users/{user}/keys/tokens/tokenconfig": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["users.tokenConfig"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/users/{user}/login-type": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["users.loginType"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/users/{user}/notifications/preferences": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["notifications.getPreferences"];
        put: operations["notifications.updatePreferences"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/users/{user}/organizations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["users.organizations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/users/{user}/organizations/{organizationname}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["users.organizationByName"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/users/{user}/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: operations["users.updatePassword"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/users/{user}/preferences": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["users.getPreferences"];
        put: operations["users.updatePreferences"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/users/{user}/profile": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: operations["users.updateProfile"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/users/{user}/quiet-hours": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["users.getQuietHours"];
        put: operations["users.updateQuietHours"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/users/{user}/roles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["users.roles"];
        put: operations["users.updateRoles"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/users/{user}/status/activate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: operations["users.activate"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/users/{user}/status/suspend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: operations["users.suspend"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/users/{user}/workspace/{workspacename}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["workspaces.getByOwnerAndName"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/users/{user}/workspace/{workspacename}/builds/{buildnumber}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["workspaces.buildByNumber"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/users/{user}/workspaces": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["workspaces.createForUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/users/authmethods": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["authorization.authMethods"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/users/first": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["authorization.getFirstUser"];
        put?: never;
        post: operations["authorization.createFirstUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/users/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["authorization.login"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/users/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["session.logout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/users/oauth2/github/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["signin.githubCallback"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/users/oauth2/github/device": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["signin.githubDevice"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/users/oidc-claims": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["signinSession.oidcClaims"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/users/oidc/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["signin.oidcCallback"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/users/otp/change-password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["authorization.changePasswordWithOneTimePasscode"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/users/otp/request": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["authorization.requestOneTimePasscode"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/users/roles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["users.assignableRoles"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/users/validate-password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["session.validatePassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspace-quota/{user}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["groups.workspaceQuota"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaceagents/{workspaceagent}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["agents.get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaceagents/{workspaceagent}/connection": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["agents.connection"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaceagents/{workspaceagent}/containers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["agents.containers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaceagents/{workspaceagent}/containers/devcontainers/{devcontainer}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete: operations["agents.deleteDevcontainer"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaceagents/{workspaceagent}/containers/devcontainers/{devcontainer}/recreate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["agents.recreateDevcontainer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaceagents/{workspaceagent}/containers/watch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["agents.watchContainers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaceagents/{workspaceagent}/coordinate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["tailnet.agentCoordinate"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaceagents/{workspaceagent}/listening-ports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["agents.listeningPorts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaceagents/{workspaceagent}/logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["agentLogs.logs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaceagents/{workspaceagent}/pty": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["agentStreams.pty"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaceagents/{workspaceagent}/ssh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["agentStreams.ssh"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaceagents/{workspaceagent}/startup-logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["agentLogs.startupLogs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaceagents/{workspaceagent}/tunnel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["agentStreams.tunnel"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaceagents/{workspaceagent}/watch-metadata": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["agentMetadata.watchMetadata"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaceagents/{workspaceagent}/watch-metadata-ws": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["agentMetadata.watchMetadataWs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaceagents/aws-instance-identity": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["agentIdentity.aws"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaceagents/azure-instance-identity": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["agentIdentity.azure"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaceagents/google-instance-identity": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["agentIdentity.google"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaceagents/me/app-status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch: operations["agentReports.appStatus"];
        trace?: never;
    };
    "/api/v2/workspaceagents/me/connections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["agentReports.connection"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaceagents/me/coordinate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["tailnetAgent.coordinate"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaceagents/me/external-auth": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["agentExternalAuth.externalAuth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaceagents/me/gitauth": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["agentExternalAuth.gitAuth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaceagents/me/gitsshkey": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["agentMe.gitSshKey"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaceagents/me/log-source": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["agentReports.logSource"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaceagents/me/logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch: operations["agentReports.logs"];
        trace?: never;
    };
    "/api/v2/workspaceagents/me/manifest": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["agentRpc.manifest"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaceagents/me/reinit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["agentRpc.reinit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaceagents/me/rpc": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["agentRpc.rpc"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaceagents/me/streams/{stream}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["agentStreamEnd.stream"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaceagents/me/tasks/{task}/log-snapshot": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["taskAgent.logSnapshot"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspacebuilds/{workspacebuild}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["workspaces.getBuild"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspacebuilds/{workspacebuild}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch: operations["workspaces.cancelBuild"];
        trace?: never;
    };
    "/api/v2/workspacebuilds/{workspacebuild}/logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["workspaces.buildLogs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspacebuilds/{workspacebuild}/parameters": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["workspaces.buildParameters"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspacebuilds/{workspacebuild}/resources": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["workspaces.buildResources"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspacebuilds/{workspacebuild}/state": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["workspaces.buildState"];
        put: operations["workspaces.updateBuildState"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspacebuilds/{workspacebuild}/timings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["workspaces.buildTimings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaceproxies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["workspaceProxies.list"];
        put?: never;
        post: operations["workspaceProxies.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaceproxies/{workspaceproxy}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["workspaceProxies.get"];
        put?: never;
        post?: never;
        delete: operations["workspaceProxies.delete"];
        options?: never;
        head?: never;
        patch: operations["workspaceProxies.update"];
        trace?: never;
    };
    "/api/v2/workspaceproxies/me/deregister": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["workspaceProxyMe.deregister"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaceproxies/me/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["workspaceProxyMe.register"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaces": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["workspaces.list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaces/{workspace}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["workspaces.get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch: operations["workspaces.update"];
        trace?: never;
    };
    "/api/v2/workspaces/{workspace}/acl": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["workspaceSharing.getAcl"];
        put?: never;
        post?: never;
        delete: operations["workspaceSharing.deleteAcl"];
        options?: never;
        head?: never;
        patch: operations["workspaceSharing.updateAcl"];
        trace?: never;
    };
    "/api/v2/workspaces/{workspace}/agent-connection-watch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["tailnet.agentConnectionWatch"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaces/{workspace}/autostart": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: operations["workspaceSchedules.setAutostart"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaces/{workspace}/autoupdates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: operations["workspaceSchedules.setAutomaticUpdates"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaces/{workspace}/builds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["workspaces.listBuilds"];
        put?: never;
        post: operations["workspaces.createBuild"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaces/{workspace}/dormant": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: operations["workspaceSchedules.setDormant"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaces/{workspace}/extend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: operations["workspaceSchedules.extend"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaces/{workspace}/external-agent/{agent}/credentials": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["agents.externalCredentials"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaces/{workspace}/favorite": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: operations["workspaces.favorite"];
        post?: never;
        delete: operations["workspaces.unfavorite"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaces/{workspace}/moves": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["workspaceMoves.list"];
        put?: never;
        post: operations["workspaceMoves.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaces/{workspace}/port-share": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["portShares.list"];
        put?: never;
        post: operations["portShares.upsert"];
        delete: operations["portShares.delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaces/{workspace}/resolve-autostart": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["workspaceSchedules.resolveAutostart"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaces/{workspace}/timings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["workspaces.workspaceTimings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaces/{workspace}/ttl": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: operations["workspaceSchedules.setTtl"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaces/{workspace}/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["workspaceSchedules.reportUsage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaces/{workspace}/watch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["workspaceWatch.watch"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/workspaces/{workspace}/watch-ws": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["workspaceWatch.watchWs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/bin/workbay-{os}-{arch}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["agentBinaries.cliBinary"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/bin/workbay-{os}-{arch}.sha256": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["agentBinaries.cliBinaryChecksum"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/bin/workbay-agent-{os}-{arch}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["agentBinaries.binary"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/bin/workbay-agent-{os}-{arch}.sha256": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["agentBinaries.binaryChecksum"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        ACLAvailable: {
            groups: components["schemas"]["Group"][];
            users: components["schemas"]["ReducedUser"][];
        };
        AddLicenseRequest: {
            /**
             * maxLength(32768)
             * @description a string at most 32768 character(s) long
             */
            license: string;
        };
        /** @enum {string} */
        AgentChatSendShortcut: "enter" | "modifier_enter";
        AgentConnectionInfo: {
            derp_force_websockets: boolean;
            derp_map: {
                OmitDefaultRegions?: boolean;
                Regions: {
                    [key: string]: unknown;
                };
            };
            disable_direct_connections: boolean;
            hostname_suffix?: string;
        };
        AgentConnectionTiming: {
            ended_at: components["schemas"]["Date"];
            /** @enum {string} */
            stage: "init" | "plan" | "graph" | "apply" | "start" | "stop" | "cron" | "connect";
            started_at: components["schemas"]["Date"];
            workspace_agent_id: components["schemas"]["UUID"];
            workspace_agent_name: string;
        };
        AgentGitSSHKey: {
            private_key: string;
            public_key: string;
        };
        AgentManifest: {
            agent_id: components["schemas"]["UUID"];
            agent_name: string;
            apps: components["schemas"]["WorkspaceApp"][];
            derp_force_websockets: boolean;
            derp_map: {
                OmitDefaultRegions?: boolean;
                Regions: {
                    [key: string]: unknown;
                };
            };
            directory: string;
            disable_direct_connections: boolean;
            environment_variables: {
                [key: string]: string;
            };
            git_auth_configs: components["schemas"]["Int"];
            metadata: components["schemas"]["WorkspaceAgentMetadataDescription"][];
            motd_file: string;
            owner_name: string;
            scripts: components["schemas"]["WorkspaceAgentScript"][];
            vscode_port_proxy_uri: string;
            workspace_id: components["schemas"]["UUID"];
            workspace_name: string;
        };
        AgentScriptTiming: {
            display_name: string;
            ended_at: components["schemas"]["Date"];
            exit_code: components["schemas"]["Int"];
            /** @enum {string} */
            stage: "init" | "plan" | "graph" | "apply" | "start" | "stop" | "cron" | "connect";
            started_at: components["schemas"]["Date"];
            status: string;
            workspace_agent_id: components["schemas"]["UUID"];
            workspace_agent_name: string;
        };
        APIAllowListTarget: {
            id: string;
            type: components["schemas"]["RBACResource"];
        };
        APIKey: {
            allow_list: components["schemas"]["APIAllowListTarget"][];
            created_at: components["schemas"]["Date"];
            expires_at: components["schemas"]["Date"];
            id: string;
            last_used: components["schemas"]["Date"];
            lifetime_seconds: components["schemas"]["Int"];
            /** @enum {string} */
            login_type: "github" | "oidc" | "password" | "token" | "oauth2_provider_app";
            /** @enum {string} */
            scope: "all" | "application_connect";
            scopes: string[];
            token_name: string;
            updated_at: components["schemas"]["Date"];
            user_id: components["schemas"]["UUID"];
        };
        APIKeyWithOwner: {
            allow_list: components["schemas"]["APIAllowListTarget"][];
            created_at: components["schemas"]["Date"];
            expires_at: components["schemas"]["Date"];
            id: string;
            last_used: components["schemas"]["Date"];
            lifetime_seconds: components["schemas"]["Int"];
            /** @enum {string} */
            login_type: "github" | "oidc" | "password" | "token" | "oauth2_provider_app";
            /** @enum {string} */
            scope: "all" | "application_connect";
            scopes: string[];
            token_name: string;
            updated_at: components["schemas"]["Date"];
            user_id: components["schemas"]["UUID"];
            username: string;
        };
        AppearanceConfig: {
            announcement_banners: components["schemas"]["BannerConfig"][];
            application_name: string;
            docs_url: string;
            logo_url: string;
            service_banner: components["schemas"]["BannerConfig"];
            support_links: components["schemas"]["LinkConfig"][];
        };
        AppHostResponse: {
            host: string;
        };
        ArchiveTemplateVersionsRequest: {
            all?: boolean | null;
        };
        ArchiveTemplateVersionsResponse: {
            archived_ids: components["schemas"]["UUID"][];
            template_id: components["schemas"]["UUID"];
        };
        AssignableRoles: {
            assignable: boolean;
            built_in: boolean;
            display_name: string;
            name: string;
            organization_id?: components["schemas"]["UUID"];
            organization_permissions: components["schemas"]["Permission"][];
            site_permissions: components["schemas"]["Permission"][];
            user_permissions: components["schemas"]["Permission"][];
        };
        AuditLog: {
            action: string;
            additional_fields: {
                [key: string]: unknown;
            };
            description: string;
            diff: {
                [key: string]: {
                    /** unknown */
                    new: unknown;
                    /** unknown */
                    old: unknown;
                    secret: boolean;
                };
            };
            id: components["schemas"]["UUID"];
            ip: string;
            is_deleted: boolean;
            organization?: components["schemas"]["MinimalOrganization"];
            organization_id: components["schemas"]["UUID"];
            request_id: string;
            resource_icon: string;
            resource_id: string;
            resource_link: string;
            resource_target: string;
            resource_type: string;
            status_code: components["schemas"]["Int"];
            time: components["schemas"]["Date"];
            user: components["schemas"]["User"] | null;
            user_agent: string;
        };
        AuditLogResponse: {
            audit_logs: components["schemas"]["AuditLog"][];
            count: components["schemas"]["Int"];
            count_cap: components["schemas"]["Int"];
        };
        AuthenticateResponse: {
            session_token: string;
        };
        AuthMethods: {
            github: {
                default_provider_configured: boolean;
                enabled: boolean;
            };
            oidc: {
                enabled: boolean;
                iconUrl: string;
                signInText: string;
            };
            password: {
                enabled: boolean;
            };
            terms_of_service_url?: string;
        };
        AuthorizationCheck: {
            /** @enum {string} */
            action: "create" | "read" | "update" | "delete" | "read_personal" | "update_personal" | "assign" | "unassign" | "use" | "start" | "stop" | "ssh" | "application_connect" | "share" | "view_insights" | "create_agent" | "delete_agent" | "update_agent";
            object: components["schemas"]["AuthorizationObject"];
        };
        AuthorizationObject: {
            any_org?: boolean | null;
            organization_id?: string | null;
            owner_id?: string | null;
            resource_id?: string | null;
            /** @enum {string} */
            resource_type: "*" | "ai_model_price" | "ai_provider" | "ai_seat" | "aibridge_interception" | "api_key" | "assign_org_role" | "assign_role" | "audit_log" | "boundary_usage" | "chat" | "connection_log" | "crypto_key" | "debug_info" | "deployment_config" | "deployment_stats" | "file" | "group" | "group_member" | "idpsync_settings" | "inbox_notification" | "license" | "notification_message" | "notification_preference" | "notification_template" | "oauth2_app" | "oauth2_app_code_token" | "oauth2_app_secret" | "organization" | "organization_member" | "prebuilt_workspace" | "provisioner_daemon" | "provisioner_jobs" | "replicas" | "system" | "tailnet_coordinator" | "task" | "template" | "usage_event" | "user" | "user_secret" | "user_skill" | "webpush_subscription" | "workspace" | "workspace_agent_devcontainers" | "workspace_agent_resource_monitor" | "workspace_dormant" | "workspace_proxy";
        };
        AuthorizationRequest: {
            checks: {
                [key: string]: components["schemas"]["AuthorizationCheck"];
            };
        };
        AWSInstanceIdentityToken: {
            /**
             * maxLength(64)
             * @description a string at most 64 character(s) long
             */
            agent_name?: string | null;
            /**
             * maxLength(65536)
             * @description a string at most 65536 character(s) long
             */
            document: string;
            /**
             * maxLength(65536)
             * @description a string at most 65536 character(s) long
             */
            signature: string;
        };
        AzureInstanceIdentityToken: {
            /**
             * maxLength(64)
             * @description a string at most 64 character(s) long
             */
            agent_name?: string | null;
            /** @enum {string} */
            encoding: "pkcs7";
            /**
             * maxLength(65536)
             * @description a string at most 65536 character(s) long
             */
            signature: string;
        };
        BadGateway: {
            /** @enum {string} */
            _tag: "BadGateway";
            detail?: string;
            message: string;
            validations?: components["schemas"]["Validation"][];
        };
        BannerConfig: {
            background_color?: string;
            enabled: boolean;
            message?: string;
        };
        BuildInfoResponse: {
            agent_api_version: string;
            dashboard_url: string;
            deployment_id: string;
            external_url: string;
            provisioner_api_version: string;
            telemetry: boolean;
            upgrade_message: string;
            version: string;
            webpush_public_key?: string;
            workspace_proxy: boolean;
        };
        ConnectionLog: {
            agent_name: string;
            connect_time: components["schemas"]["Date"];
            id: components["schemas"]["UUID"];
            ip: string;
            organization: components["schemas"]["MinimalOrganization"];
            ssh_info?: components["schemas"]["ConnectionLogSSHInfo"];
            /** @enum {string} */
            type: "ssh" | "vscode" | "jetbrains" | "reconnecting_pty" | "workspace_app" | "port_forwarding";
            web_info?: components["schemas"]["ConnectionLogWebInfo"];
            workspace_id: components["schemas"]["UUID"];
            workspace_name: string;
            workspace_owner_id: components["schemas"]["UUID"];
            workspace_owner_username: string;
        };
        ConnectionLogResponse: {
            connection_logs: components["schemas"]["ConnectionLog"][];
            count: components["schemas"]["Int"];
            count_cap: components["schemas"]["Int"];
        };
        ConnectionLogSSHInfo: {
            connection_id: components["schemas"]["UUID"];
            disconnect_reason?: string;
            disconnect_time?: components["schemas"]["Date"];
            exit_code?: components["schemas"]["Int"];
        };
        ConnectionLogWebInfo: {
            slug_or_port: string;
            status_code: components["schemas"]["Int"];
            user: components["schemas"]["User"] | null;
            user_agent: string;
        };
        CreateFirstUserRequest: {
            /**
             * maxLength(320)
             * @description a string matching the pattern ^[^\s@]+@[^\s@]+\.[^\s@]+$
             */
            email: string;
            /**
             * maxLength(128)
             * @description a string at most 128 character(s) long
             */
            name?: string | null;
            onboarding_info?: {
                newsletter_marketing?: boolean | null;
                newsletter_releases?: boolean | null;
            } | null;
            password: string;
            trial?: boolean | null;
            trial_info?: {
                [key: string]: unknown;
            } | null;
            /**
             * maxLength(32)
             * @description a string matching the pattern ^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$
             */
            username: string;
        };
        CreateFirstUserResponse: {
            organization_id: components["schemas"]["UUID"];
            user_id: components["schemas"]["UUID"];
        };
        CreateGroupRequest: {
            /**
             * maxLength(512)
             * @description a string at most 512 character(s) long
             */
            avatar_url?: string | null;
            /**
             * maxLength(64)
             * @description a string at most 64 character(s) long
             */
            display_name?: string | null;
            /**
             * maxLength(32)
             * @description a string matching the pattern ^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$
             */
            name: string;
            /**
             * lessThanOrEqualTo(2147483647)
             * @description a number less than or equal to 2147483647
             */
            quota_allowance?: number | null;
        };
        CreateOrganizationRequest: {
            /**
             * maxLength(128)
             * @description a string at most 128 character(s) long
             */
            description?: string | null;
            /**
             * maxLength(64)
             * @description a string at most 64 character(s) long
             */
            display_name?: string | null;
            /**
             * maxLength(256)
             * @description a string at most 256 character(s) long
             */
            icon?: string | null;
            /**
             * maxLength(32)
             * @description a string matching the pattern ^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$
             */
            name: string;
        };
        CreateProvisionerKeyRequest: {
            /**
             * maxLength(1024)
             * @description a string at most 1024 character(s) long
             */
            name: string;
            tags?: {
                [key: string]: string;
            } | null;
        };
        CreateProvisionerKeyResponse: {
            key: string;
        };
        CreateTaskRequest: {
            /**
             * maxLength(64)
             * @description a string at most 64 character(s) long
             */
            display_name?: string | null;
            /**
             * maxLength(65536)
             * @description a string at most 65536 character(s) long
             */
            input: string;
            name?: ("" | string) | null;
            /**
             * Format: uuid
             * @description a Universally Unique Identifier
             */
            template_version_id: string;
            /** @description a Universally Unique Identifier */
            template_version_preset_id?: string | null;
        };
        CreateTemplateRequest: {
            activity_bump_ms?: number | null;
            allow_user_autostart?: boolean | null;
            allow_user_autostop?: boolean | null;
            allow_user_cancel_workspace_jobs?: boolean | null;
            autostart_requirement?: {
                days_of_week?: string[] | null;
            } | null;
            autostop_requirement?: {
                days_of_week?: string[] | null;
                /**
                 * int
                 * @description an integer
                 */
                weeks?: number | null;
            } | null;
            cors_behavior?: ("simple" | "passthru") | null;
            default_ttl_ms?: number | null;
            delete_ttl_ms?: number | null;
            /**
             * maxLength(128)
             * @description a string at most 128 character(s) long
             */
            description?: string | null;
            disable_everyone_group_access?: boolean | null;
            /**
             * maxLength(64)
             * @description a string at most 64 character(s) long
             */
            display_name?: string | null;
            dormant_ttl_ms?: number | null;
            failure_ttl_ms?: number | null;
            /**
             * maxLength(256)
             * @description a string at most 256 character(s) long
             */
            icon?: string | null;
            max_port_share_level?: ("owner" | "authenticated" | "organization" | "public") | null;
            /**
             * maxLength(32)
             * @description a string matching the pattern ^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$
             */
            name: string;
            require_active_version?: boolean | null;
            template_use_classic_parameter_flow?: boolean | null;
            /**
             * Format: uuid
             * @description a Universally Unique Identifier
             */
            template_version_id: string;
        };
        CreateTemplateVersionDryRunRequest: {
            rich_parameter_values?: components["schemas"]["VariableValue"][] | null;
            user_variable_values?: components["schemas"]["VariableValue"][] | null;
            /**
             * maxLength(128)
             * @description a string at most 128 character(s) long
             */
            workspace_name?: string | null;
        };
        CreateTemplateVersionRequest: {
            /**
             * maxLength(256)
             * @description a string at most 256 character(s) long
             */
            example_id?: string | null;
            /** @description a Universally Unique Identifier */
            file_id?: string | null;
            /**
             * maxLength(1048576)
             * @description a string at most 1048576 character(s) long
             */
            message?: string | null;
            name?: ("" | string) | null;
            /**
             * maxLength(64)
             * @description a string at most 64 character(s) long
             */
            provisioner: string;
            /** @enum {string} */
            storage_method: "file";
            tags?: {
                [key: string]: string;
            } | null;
            /** @description a Universally Unique Identifier */
            template_id?: string | null;
            user_variable_values?: components["schemas"]["VariableValue"][] | null;
        };
        CreateTokenRequest: {
            allow_list?: {
                id: string;
                type: components["schemas"]["RBACResource"];
            }[] | null;
            lifetime?: number | null;
            scope?: string | null;
            scopes?: string[] | null;
            /**
             * maxLength(64)
             * @description a string matching the pattern ^$|^[a-zA-Z0-9][a-zA-Z0-9_.-]*$
             */
            token_name?: string | null;
        };
        CreateUserRequestWithOrgs: {
            /**
             * maxLength(320)
             * @description a string matching the pattern ^[^\s@]+@[^\s@]+\.[^\s@]+$
             */
            email: string;
            login_type?: ("" | "github" | "none" | "oidc" | "password" | "token") | null;
            /**
             * maxLength(128)
             * @description a string at most 128 character(s) long
             */
            name?: string | null;
            organization_ids?: string[] | null;
            password?: string | null;
            roles?: string[] | null;
            service_account?: boolean | null;
            user_status?: ("active" | "suspended") | null;
            /**
             * maxLength(32)
             * @description a string matching the pattern ^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$
             */
            username: string;
        };
        CreateWorkspaceBuildRequest: {
            dry_run?: boolean | null;
            log_level?: "debug" | null;
            orphan?: boolean | null;
            reason?: ("dashboard" | "cli" | "ssh_connection" | "vscode_connection" | "jetbrains_connection") | null;
            rich_parameter_values?: components["schemas"]["VariableValue"][] | null;
            state?: components["schemas"]["Int"][] | null;
            /** @description a Universally Unique Identifier */
            template_version_id?: string | null;
            /** @description a Universally Unique Identifier */
            template_version_preset_id?: string | null;
            /** @enum {string} */
            transition: "start" | "stop" | "delete";
        };
        CreateWorkspaceMoveRequest: {
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$ */
            host: string;
        };
        CreateWorkspaceProxyRequest: {
            /**
             * maxLength(128)
             * @description a string at most 128 character(s) long
             */
            display_name?: string | null;
            /**
             * maxLength(2048)
             * @description a string at most 2048 character(s) long
             */
            icon?: string | null;
            /**
             * maxLength(32)
             * @description a string matching the pattern ^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$
             */
            name: string;
        };
        CreateWorkspaceRequest: {
            automatic_updates?: ("always" | "never") | null;
            /**
             * maxLength(256)
             * @description a string at most 256 character(s) long
             */
            autostart_schedule?: string | null;
            /**
             * maxLength(32)
             * @description a string matching the pattern ^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$
             */
            name: string;
            rich_parameter_values?: components["schemas"]["VariableValue"][] | null;
            /** @description a Universally Unique Identifier */
            template_id?: string | null;
            /** @description a Universally Unique Identifier */
            template_version_id?: string | null;
            /** @description a Universally Unique Identifier */
            template_version_preset_id?: string | null;
            /**
             * nonNegative
             * @description a non-negative number
             */
            ttl_ms?: components["schemas"]["Int"] | null;
        };
        CustomNotificationContent: {
            /**
             * maxLength(4096)
             * @description a string at most 4096 character(s) long
             */
            message?: string | null;
            /**
             * maxLength(4096)
             * @description a string at most 4096 character(s) long
             */
            title?: string | null;
        };
        CustomNotificationRequest: {
            content: components["schemas"]["CustomNotificationContent"];
        };
        CustomRoleRequest: {
            /**
             * maxLength(256)
             * @description a string at most 256 character(s) long
             */
            display_name?: string | null;
            /**
             * maxLength(256)
             * @description a string at most 256 character(s) long
             */
            name: string;
            /**
             * maxItems(512)
             * @description an array of at most 512 item(s)
             */
            organization_permissions?: {
                /**
                 * maxLength(64)
                 * @description a string at most 64 character(s) long
                 */
                action: string;
                negate?: boolean | null;
                /**
                 * maxLength(64)
                 * @description a string at most 64 character(s) long
                 */
                resource_type: string;
            }[] | null;
            /**
             * maxItems(512)
             * @description an array of at most 512 item(s)
             */
            site_permissions?: {
                /**
                 * maxLength(64)
                 * @description a string at most 64 character(s) long
                 */
                action: string;
                negate?: boolean | null;
                /**
                 * maxLength(64)
                 * @description a string at most 64 character(s) long
                 */
                resource_type: string;
            }[] | null;
            /**
             * maxItems(512)
             * @description an array of at most 512 item(s)
             */
            user_permissions?: {
                /**
                 * maxLength(64)
                 * @description a string at most 64 character(s) long
                 */
                action: string;
                negate?: boolean | null;
                /**
                 * maxLength(64)
                 * @description a string at most 64 character(s) long
                 */
                resource_type: string;
            }[] | null;
        };
        /** @description a string to be decoded into a Date */
        Date: string;
        /** @description a string to be decoded into a Date */
        DateFromString: string;
        DAUEntry: {
            amount: components["schemas"]["Int"];
            date: string;
        };
        DAUsResponse: {
            entries: components["schemas"]["DAUEntry"][];
            tz_hour_offset: components["schemas"]["Int"];
        };
        DeleteExternalAuthByIDResponse: {
            token_revocation_error?: string;
            token_revoked: boolean;
        };
        DeleteWorkspaceAgentPortShareRequest: {
            /**
             * minLength(1)
             * @description a string at least 1 character(s) long
             */
            agent_name: string;
            /**
             * between(0, 65535)
             * @description a number between 0 and 65535
             */
            port: number;
        };
        DeploymentConfig: {
            config: {
                [key: string]: unknown;
            };
            options: components["schemas"]["DeploymentOption"][];
        };
        DeploymentOption: {
            annotations?: {
                [key: string]: string;
            };
            default?: string;
            description?: string;
            env?: string;
            flag?: string;
            flag_shorthand?: string;
            group?: components["schemas"]["DeploymentOptionGroup"];
            hidden?: boolean;
            name?: string;
            required?: boolean;
            use_instead?: components["schemas"]["DeploymentOption"][];
            /** unknown */
            value?: unknown;
            value_source?: string;
            yaml?: string;
        };
        DeploymentOptionGroup: {
            description?: string;
            name?: string;
            parent?: components["schemas"]["DeploymentOptionGroup"];
            yaml?: string;
        };
        DeploymentStats: {
            aggregated_from: components["schemas"]["Date"];
            collected_at: components["schemas"]["Date"];
            next_update_at: components["schemas"]["Date"];
            session_count: {
                jetbrains: components["schemas"]["Int"];
                reconnecting_pty: components["schemas"]["Int"];
                ssh: components["schemas"]["Int"];
                vscode: components["schemas"]["Int"];
            };
            workspaces: {
                building: components["schemas"]["Int"];
                connection_latency_ms: {
                    P50: number;
                    P95: number;
                };
                failed: components["schemas"]["Int"];
                pending: components["schemas"]["Int"];
                running: components["schemas"]["Int"];
                rx_bytes: components["schemas"]["Int"];
                stopped: components["schemas"]["Int"];
                tx_bytes: components["schemas"]["Int"];
            };
        };
        DeregisterWorkspaceProxyRequest: {
            /**
             * Format: uuid
             * @description a Universally Unique Identifier
             */
            replica_id: string;
        };
        DiagnosticExtra: {
            code: string;
        };
        /** @enum {string} */
        DisplayMode: "auto" | "always_expanded" | "always_collapsed";
        DynamicParametersRequest: {
            /**
             * int
             * @description an integer
             */
            id?: number | null;
            inputs?: {
                [key: string]: string;
            } | null;
            /** @description a Universally Unique Identifier */
            owner_id?: string | null;
        };
        DynamicParametersResponse: {
            diagnostics: components["schemas"]["FriendlyDiagnostic"][];
            id: number;
            parameters: components["schemas"]["PreviewParameter"][];
        };
        Entitlements: {
            errors: string[];
            features: {
                [key: string]: components["schemas"]["Feature"];
            };
            has_license: boolean;
            refreshed_at: components["schemas"]["Date"];
            require_telemetry: boolean;
            trial: boolean;
            warnings: string[];
        };
        ExternalAgentCredentials: {
            agent_token: string;
            command: string;
        };
        ExternalAuth: {
            app_install_url: string;
            app_installable: boolean;
            authenticated: boolean;
            device: boolean;
            display_name: string;
            installations: components["schemas"]["ExternalAuthAppInstallation"][];
            user: components["schemas"]["ExternalAuthUser"] | null;
        };
        ExternalAuthAppInstallation: {
            account: components["schemas"]["ExternalAuthUser"];
            configure_url: string;
            id: number;
        };
        ExternalAuthDevice: {
            device_code: string;
            expires_in: components["schemas"]["Int"];
            interval: components["schemas"]["Int"];
            user_code: string;
            verification_uri: string;
        };
        ExternalAuthDeviceExchange: {
            /**
             * minLength(1)
             * @description a string at least 1 character(s) long
             */
            device_code: string;
        };
        ExternalAuthLink: {
            authenticated: boolean;
            created_at: components["schemas"]["Date"];
            expires: components["schemas"]["Date"];
            has_refresh_token: boolean;
            provider_id: string;
            updated_at: components["schemas"]["Date"];
            validate_error: string;
        };
        ExternalAuthLinkProvider: {
            allow_refresh: boolean;
            allow_validate: boolean;
            code_challenge_methods_supported: string[];
            device: boolean;
            display_icon: string;
            display_name: string;
            id: string;
            supports_revocation: boolean;
            type: string;
        };
        ExternalAuthResponse: {
            access_token: string;
            password: string;
            token_extra: {
                [key: string]: unknown;
            } | null;
            type: string;
            url: string;
            username: string;
        };
        ExternalAuthUser: {
            avatar_url: string;
            id: number;
            login: string;
            name: string;
            profile_url: string;
        };
        Feature: {
            actual?: components["schemas"]["Int"];
            enabled: boolean;
            /** @enum {string} */
            entitlement: "entitled" | "grace_period" | "not_entitled";
            limit?: components["schemas"]["Int"];
            usage_period?: components["schemas"]["UsagePeriod"];
        };
        FriendlyDiagnostic: {
            detail: string;
            extra: components["schemas"]["DiagnosticExtra"];
            /** @enum {string} */
            severity: "error" | "warning";
            summary: string;
        };
        GatewayTimeout: {
            /** @enum {string} */
            _tag: "GatewayTimeout";
            detail?: string;
            message: string;
            validations?: components["schemas"]["Validation"][];
        };
        GetUsersResponse: {
            count: components["schemas"]["Int"];
            users: components["schemas"]["User"][];
        };
        GetUserStatusCountsResponse: {
            status_counts: {
                [key: string]: components["schemas"]["UserStatusChangeCount"][];
            };
        };
        GitSSHKey: {
            created_at: components["schemas"]["Date"];
            public_key: string;
            updated_at: components["schemas"]["Date"];
            user_id: components["schemas"]["UUID"];
        };
        GoogleInstanceIdentityToken: {
            /**
             * maxLength(64)
             * @description a string at most 64 character(s) long
             */
            agent_name?: string | null;
            /**
             * maxLength(65536)
             * @description a string at most 65536 character(s) long
             */
            json_web_token: string;
        };
        Group: {
            avatar_url?: string;
            display_name: string;
            id: components["schemas"]["UUID"];
            members: components["schemas"]["ReducedUser"][];
            name: string;
            organization_display_name: string;
            organization_id: components["schemas"]["UUID"];
            organization_name: string;
            quota_allowance: components["schemas"]["Int"];
            /** @enum {string} */
            source: "oidc" | "user";
            total_member_count: components["schemas"]["Int"];
        };
        GroupAIBudget: {
            created_at: components["schemas"]["Date"];
            group_id: components["schemas"]["UUID"];
            spend_limit_micros: components["schemas"]["Int"];
            updated_at: components["schemas"]["Date"];
        };
        GroupMembersResponse: {
            count: components["schemas"]["Int"];
            users: components["schemas"]["ReducedUser"][];
        };
        GroupSyncSettings: {
            auto_create_missing_groups: boolean;
            field: string;
            legacy_group_name_mapping?: {
                [key: string]: string;
            };
            mapping: {
                [key: string]: string[];
            };
            regex_filter: string | null;
        };
        GroupSyncSettingsRequest: {
            auto_create_missing_groups?: boolean | null;
            /**
             * maxLength(256)
             * @description a string at most 256 character(s) long
             */
            field?: string | null;
            legacy_group_name_mapping?: {
                [key: string]: string;
            } | null;
            mapping?: {
                [key: string]: string[];
            } | null;
            /**
             * maxLength(1024)
             * @description a string at most 1024 character(s) long
             */
            regex_filter?: string | null;
        };
        Healthcheck: {
            interval: components["schemas"]["Int"];
            threshold: components["schemas"]["Int"];
            url: string;
        };
        HealthcheckReport: {
            access_url: {
                access_url: string;
                dismissed: boolean;
                error?: string;
                healthy: boolean;
                healthz_response: string;
                reachable: boolean;
                /** @enum {string} */
                severity: "ok" | "warning" | "error";
                status_code: number;
                warnings: {
                    code: string;
                    message: string;
                }[];
            };
            coder_version: string;
            database: {
                dismissed: boolean;
                error?: string;
                healthy: boolean;
                latency: string;
                latency_ms: number;
                reachable: boolean;
                /** @enum {string} */
                severity: "ok" | "warning" | "error";
                threshold_ms: number;
                warnings: {
                    code: string;
                    message: string;
                }[];
            };
            derp: {
                dismissed: boolean;
                error?: string;
                healthy: boolean;
                netcheck_logs: string[];
                regions: {
                    [key: string]: unknown;
                };
                /** @enum {string} */
                severity: "ok" | "warning" | "error";
                warnings: {
                    code: string;
                    message: string;
                }[];
            };
            healthy: boolean;
            provisioner_daemons: {
                dismissed: boolean;
                error?: string;
                items: {
                    /** unknown */
                    provisioner_daemon: unknown;
                    warnings: {
                        code: string;
                        message: string;
                    }[];
                }[];
                /** @enum {string} */
                severity: "ok" | "warning" | "error";
                warnings: {
                    code: string;
                    message: string;
                }[];
            };
            /** @enum {string} */
            severity: "ok" | "warning" | "error";
            time: components["schemas"]["Date"];
            websocket: {
                body: string;
                code: number;
                dismissed: boolean;
                error?: string;
                healthy: boolean;
                /** @enum {string} */
                severity: "ok" | "warning" | "error";
                warnings: {
                    code: string;
                    message: string;
                }[];
            };
            workspace_proxy: {
                dismissed: boolean;
                error?: string;
                healthy: boolean;
                /** @enum {string} */
                severity: "ok" | "warning" | "error";
                warnings: {
                    code: string;
                    message: string;
                }[];
                workspace_proxies: {
                    regions: unknown[];
                };
            };
        };
        /** @enum {string} */
        HealthSection: "DERP" | "AccessURL" | "Websocket" | "Database" | "WorkspaceProxy" | "ProvisionerDaemons";
        HealthSettings: {
            dismissed_healthchecks: components["schemas"]["HealthSection"][];
        };
        /** @description The request did not match the expected schema */
        HttpApiDecodeError: {
            /** @enum {string} */
            _tag: "HttpApiDecodeError";
            issues: components["schemas"]["Issue"][];
            message: string;
        };
        InboxNotification: {
            actions: components["schemas"]["InboxNotificationAction"][];
            content: string;
            created_at: components["schemas"]["Date"];
            icon: string;
            id: components["schemas"]["UUID"];
            read_at: components["schemas"]["Date"] | null;
            targets: components["schemas"]["UUID"][];
            template_id: components["schemas"]["UUID"];
            title: string;
            user_id: components["schemas"]["UUID"];
        };
        InboxNotificationAction: {
            label: string;
            url: string;
        };
        /**
         * int
         * @description an integer
         */
        Int: number;
        InvalidatedPreset: {
            preset_name: string;
            template_name: string;
            template_version_name: string;
        };
        InvalidatePresetsResponse: {
            invalidated: components["schemas"]["InvalidatedPreset"][];
        };
        /** @description Represents an error encountered while parsing a value to match the schema */
        Issue: {
            /**
             * @description The tag identifying the type of parse issue
             * @enum {string}
             */
            _tag: "Pointer" | "Unexpected" | "Missing" | "Composite" | "Refinement" | "Transformation" | "Type" | "Forbidden";
            /** @description A descriptive message explaining the issue */
            message: string;
            /** @description The path to the property where the issue occurred */
            path: components["schemas"]["PropertyKey"][];
        };
        License: {
            claims: {
                [key: string]: unknown;
            };
            id: components["schemas"]["Int"];
            uploaded_at: components["schemas"]["Date"];
            uuid: string;
        };
        LinkConfig: {
            icon: string;
            location?: string;
            name: string;
            target: string;
        };
        ListInboxNotificationsResponse: {
            notifications: components["schemas"]["InboxNotification"][];
            unread_count: components["schemas"]["Int"];
        };
        ListUserExternalAuthResponse: {
            links: components["schemas"]["ExternalAuthLink"][];
            providers: components["schemas"]["ExternalAuthLinkProvider"][];
        };
        LoginWithPasswordRequest: {
            /**
             * maxLength(320)
             * @description a string matching the pattern ^[^\s@]+@[^\s@]+\.[^\s@]+$
             */
            email: string;
            /**
             * minLength(1)
             * @description a string at least 1 character(s) long
             */
            password: string;
        };
        LoginWithPasswordResponse: {
            session_token: string;
        };
        MatchedProvisioners: {
            available: components["schemas"]["Int"];
            count: components["schemas"]["Int"];
            most_recently_seen?: components["schemas"]["Date"];
        };
        MinimalOrganization: {
            display_name: string;
            icon: string;
            id: components["schemas"]["UUID"];
            name: string;
        };
        MinimalUser: {
            avatar_url?: string;
            id: components["schemas"]["UUID"];
            name?: string;
            username: string;
        };
        NotificationMethodsResponse: {
            available: string[];
            default: string;
        };
        NotificationPreference: {
            disabled: boolean;
            id: components["schemas"]["UUID"];
            updated_at: components["schemas"]["Date"];
        };
        NotificationsSettings: {
            notifier_paused: boolean;
        };
        NotificationTemplate: {
            actions: string;
            body_template: string;
            enabled_by_default: boolean;
            group: string;
            id: components["schemas"]["UUID"];
            kind: string;
            method: string;
            name: string;
            title_template: string;
        };
        NullHCLString: {
            valid: boolean;
            value: string;
        };
        NullUUID: {
            uuid: string;
            valid: boolean;
        };
        OAuth2AppEndpoints: {
            authorization: string;
            device_authorization: string;
            token: string;
            token_revoke: string;
        };
        OAuth2AuthorizationServerMetadata: {
            authorization_endpoint: string;
            code_challenge_methods_supported: string[];
            grant_types_supported: string[];
            issuer: string;
            registration_endpoint: string;
            response_types_supported: string[];
            revocation_endpoint: string;
            scopes_supported: string[];
            token_endpoint: string;
            token_endpoint_auth_methods_supported: string[];
        };
        OAuth2ClientConfiguration: {
            client_id: string;
            client_id_issued_at: components["schemas"]["Int"];
            client_name?: string;
            client_secret_expires_at?: components["schemas"]["Int"];
            client_uri?: string;
            contacts?: string[];
            grant_types: string[];
            /** unknown */
            jwks?: unknown;
            jwks_uri?: string;
            logo_uri?: string;
            policy_uri?: string;
            redirect_uris?: string[];
            registration_access_token?: string;
            registration_client_uri: string;
            response_types: string[];
            scope?: string;
            software_id?: string;
            software_version?: string;
            token_endpoint_auth_method: string;
            tos_uri?: string;
        };
        OAuth2ClientRegistrationRequest: {
            client_name?: string | null;
            /**
             * maxLength(2048)
             * @description a string at most 2048 character(s) long
             */
            client_uri?: string | null;
            contacts?: string[] | null;
            grant_types?: string[] | null;
            jwks?: {
                [key: string]: unknown;
            } | null;
            /**
             * maxLength(2048)
             * @description a string at most 2048 character(s) long
             */
            jwks_uri?: string | null;
            /**
             * maxLength(2048)
             * @description a string at most 2048 character(s) long
             */
            logo_uri?: string | null;
            /**
             * maxLength(2048)
             * @description a string at most 2048 character(s) long
             */
            policy_uri?: string | null;
            redirect_uris?: string[] | null;
            response_types?: string[] | null;
            scope?: string | null;
            software_id?: string | null;
            software_statement?: string | null;
            software_version?: string | null;
            token_endpoint_auth_method?: string | null;
            /**
             * maxLength(2048)
             * @description a string at most 2048 character(s) long
             */
            tos_uri?: string | null;
        };
        OAuth2ClientRegistrationResponse: {
            client_id: string;
            client_id_issued_at?: components["schemas"]["Int"];
            client_name?: string;
            client_secret?: string;
            client_secret_expires_at?: components["schemas"]["Int"];
            client_uri?: string;
            contacts?: string[];
            grant_types: string[];
            /** unknown */
            jwks?: unknown;
            jwks_uri?: string;
            logo_uri?: string;
            policy_uri?: string;
            redirect_uris?: string[];
            registration_access_token: string;
            registration_client_uri: string;
            response_types: string[];
            scope?: string;
            software_id?: string;
            software_version?: string;
            token_endpoint_auth_method: string;
            tos_uri?: string;
        };
        OAuth2DeviceFlowCallbackResponse: {
            redirect_url: string;
        };
        OAuth2Error: {
            error: string;
            error_description: string;
            validations?: components["schemas"]["Validation"][];
        };
        OAuth2ProtectedResourceMetadata: {
            authorization_servers: string[];
            bearer_methods_supported: string[];
            resource: string;
            scopes_supported: string[];
        };
        OAuth2ProviderApp: {
            callback_url: string;
            endpoints: components["schemas"]["OAuth2AppEndpoints"];
            icon: string;
            id: components["schemas"]["UUID"];
            name: string;
        };
        OAuth2ProviderAppSecret: {
            client_secret_truncated: string;
            id: components["schemas"]["UUID"];
            last_used_at: components["schemas"]["Date"] | null;
        };
        OAuth2ProviderAppSecretFull: {
            client_secret_full: string;
            id: components["schemas"]["UUID"];
        };
        OAuth2ProviderSettings: {
            dynamic_client_registration_enabled?: boolean;
        };
        OAuth2TokenResponse: {
            access_token: string;
            expires_in: components["schemas"]["Int"];
            expiry: components["schemas"]["Date"];
            refresh_token: string;
            scope?: string;
            token_type: string;
        };
        OAuthConversionResponse: {
            expires_at: components["schemas"]["Date"];
            state_string: string;
            to_type: string;
            user_id: components["schemas"]["UUID"];
        };
        OIDCClaimsResponse: {
            claims: {
                [key: string]: unknown;
            };
        };
        Organization: {
            created_at: components["schemas"]["Date"];
            description: string;
            display_name: string;
            icon: string;
            id: components["schemas"]["UUID"];
            is_default: boolean;
            name: string;
            updated_at: components["schemas"]["Date"];
        };
        OrganizationMemberWithUserData: {
            avatar_url?: string;
            created_at: components["schemas"]["Date"];
            email: string;
            global_roles: components["schemas"]["SlimRole"][];
            name?: string;
            organization_id: components["schemas"]["UUID"];
            roles: components["schemas"]["SlimRole"][];
            updated_at: components["schemas"]["Date"];
            user_id: components["schemas"]["UUID"];
            username: string;
        };
        OrganizationSyncSettings: {
            field: string;
            mapping: {
                [key: string]: string[];
            };
            organization_assign_default: boolean;
        };
        OrganizationSyncSettingsRequest: {
            /**
             * maxLength(256)
             * @description a string at most 256 character(s) long
             */
            field?: string | null;
            mapping?: {
                [key: string]: string[];
            } | null;
            organization_assign_default?: boolean | null;
        };
        PaginatedGroup: {
            avatar_url?: string;
            display_name: string;
            id: components["schemas"]["UUID"];
            name: string;
            organization_display_name: string;
            organization_id: components["schemas"]["UUID"];
            organization_name: string;
            quota_allowance: components["schemas"]["Int"];
            /** @enum {string} */
            source: "oidc" | "user";
            total_member_count: components["schemas"]["Int"];
        };
        PaginatedGroupsResponse: {
            count: components["schemas"]["Int"];
            groups: components["schemas"]["PaginatedGroup"][];
        };
        PaginatedMembersResponse: {
            count: components["schemas"]["Int"];
            members: components["schemas"]["OrganizationMemberWithUserData"][];
        };
        PatchGroupIDPSyncConfigRequest: {
            auto_create_missing_groups?: boolean | null;
            /**
             * maxLength(256)
             * @description a string at most 256 character(s) long
             */
            field?: string | null;
            /**
             * maxLength(1024)
             * @description a string at most 1024 character(s) long
             */
            regex_filter?: string | null;
        };
        PatchGroupIDPSyncMappingRequest: {
            /**
             * maxItems(1000)
             * @description an array of at most 1000 item(s)
             */
            Add?: {
                /**
                 * Format: uuid
                 * @description a Universally Unique Identifier
                 */
                Gets: string;
                /**
                 * maxLength(256)
                 * @description a string at most 256 character(s) long
                 */
                Given: string;
            }[] | null;
            /**
             * maxItems(1000)
             * @description an array of at most 1000 item(s)
             */
            Remove?: {
                /**
                 * Format: uuid
                 * @description a Universally Unique Identifier
                 */
                Gets: string;
                /**
                 * maxLength(256)
                 * @description a string at most 256 character(s) long
                 */
                Given: string;
            }[] | null;
        };
        PatchGroupRequest: {
            add_users?: string[] | null;
            /**
             * maxLength(512)
             * @description a string at most 512 character(s) long
             */
            avatar_url?: string | null;
            /**
             * maxLength(64)
             * @description a string at most 64 character(s) long
             */
            display_name?: string | null;
            name?: ("" | string) | null;
            /**
             * lessThanOrEqualTo(2147483647)
             * @description a number less than or equal to 2147483647
             */
            quota_allowance?: number | null;
            remove_users?: string[] | null;
        };
        PatchOrganizationIDPSyncConfigRequest: {
            assign_default?: boolean | null;
            /**
             * maxLength(256)
             * @description a string at most 256 character(s) long
             */
            field?: string | null;
        };
        PatchOrganizationIDPSyncMappingRequest: {
            /**
             * maxItems(1000)
             * @description an array of at most 1000 item(s)
             */
            Add?: {
                /**
                 * Format: uuid
                 * @description a Universally Unique Identifier
                 */
                Gets: string;
                /**
                 * maxLength(256)
                 * @description a string at most 256 character(s) long
                 */
                Given: string;
            }[] | null;
            /**
             * maxItems(1000)
             * @description an array of at most 1000 item(s)
             */
            Remove?: {
                /**
                 * Format: uuid
                 * @description a Universally Unique Identifier
                 */
                Gets: string;
                /**
                 * maxLength(256)
                 * @description a string at most 256 character(s) long
                 */
                Given: string;
            }[] | null;
        };
        PatchProvisionerHostRequest: {
            draining: boolean;
        };
        PatchRoleIDPSyncConfigRequest: {
            /**
             * maxLength(256)
             * @description a string at most 256 character(s) long
             */
            field?: string | null;
        };
        PatchRoleIDPSyncMappingRequest: {
            /**
             * maxItems(1000)
             * @description an array of at most 1000 item(s)
             */
            Add?: {
                /**
                 * maxLength(64)
                 * @description a string at most 64 character(s) long
                 */
                Gets: string;
                /**
                 * maxLength(256)
                 * @description a string at most 256 character(s) long
                 */
                Given: string;
            }[] | null;
            /**
             * maxItems(1000)
             * @description an array of at most 1000 item(s)
             */
            Remove?: {
                /**
                 * maxLength(64)
                 * @description a string at most 64 character(s) long
                 */
                Gets: string;
                /**
                 * maxLength(256)
                 * @description a string at most 256 character(s) long
                 */
                Given: string;
            }[] | null;
        };
        PatchTemplateVersionRequest: {
            /**
             * maxLength(1048576)
             * @description a string at most 1048576 character(s) long
             */
            message?: string | null;
            name?: ("" | string) | null;
        };
        PatchWorkspaceAgentLogsRequest: {
            /**
             * Format: uuid
             * @description a Universally Unique Identifier
             */
            log_source_id: string;
            logs: {
                created_at: components["schemas"]["DateFromString"];
                /** @enum {string} */
                level: "trace" | "debug" | "info" | "warn" | "error";
                output: string;
            }[];
        };
        PatchWorkspaceProxy: {
            /**
             * maxLength(128)
             * @description a string at most 128 character(s) long
             */
            display_name?: string | null;
            /**
             * maxLength(2048)
             * @description a string at most 2048 character(s) long
             */
            icon?: string | null;
            id?: ("" | string) | null;
            name?: ("" | string) | null;
            regenerate_token?: boolean | null;
        };
        PauseTaskResponse: {
            workspace_build: components["schemas"]["WorkspaceBuild"];
        };
        Permission: {
            action: string;
            negate: boolean;
            resource_type: string;
        };
        PostOAuth2ProviderAppRequest: {
            /**
             * maxLength(2048)
             * @description a string at most 2048 character(s) long
             */
            callback_url: string;
            /**
             * maxLength(2048)
             * @description a string at most 2048 character(s) long
             */
            icon?: string | null;
            /**
             * maxLength(64)
             * @description a string at most 64 character(s) long
             */
            name: string;
        };
        PostWorkspaceUsageRequest: {
            /** @description a Universally Unique Identifier */
            agent_id?: string | null;
            /**
             * maxLength(64)
             * @description a string at most 64 character(s) long
             */
            app_name?: string | null;
        };
        PrebuildsSettings: {
            reconciliation_paused: boolean;
        };
        Preset: {
            Default: boolean;
            Description: string;
            DesiredPrebuildInstances: components["schemas"]["Int"] | null;
            Icon: string;
            ID: components["schemas"]["UUID"];
            Name: string;
            Parameters: components["schemas"]["PresetParameter"][];
        };
        PresetParameter: {
            Name: string;
            Value: string;
        };
        PreviewParameter: {
            default_value: components["schemas"]["NullHCLString"];
            description: string;
            diagnostics: components["schemas"]["FriendlyDiagnostic"][];
            display_name: string;
            ephemeral: boolean;
            /** @enum {string} */
            form_type: "" | "radio" | "slider" | "input" | "dropdown" | "checkbox" | "switch" | "multi-select" | "tag-select" | "textarea" | "error";
            icon: string;
            mutable: boolean;
            name: string;
            options: components["schemas"]["PreviewParameterOption"][];
            order: number;
            required: boolean;
            styling: components["schemas"]["PreviewParameterStyling"];
            /** @enum {string} */
            type: "string" | "number" | "bool" | "list(string)";
            validations: components["schemas"]["PreviewParameterValidation"][];
            value: components["schemas"]["NullHCLString"];
        };
        PreviewParameterOption: {
            description: string;
            icon: string;
            name: string;
            value: components["schemas"]["NullHCLString"];
        };
        PreviewParameterStyling: {
            disabled?: boolean;
            label?: string;
            mask_input?: boolean;
            placeholder?: string;
        };
        PreviewParameterValidation: {
            validation_error: string;
            validation_max: number | null;
            validation_min: number | null;
            validation_monotonic: string | null;
            validation_regex: string | null;
        };
        PropertyKey: string | number | {
            /** @enum {string} */
            _tag: "symbol";
            key: string;
        };
        ProvisionerDaemon: {
            api_version: string;
            created_at: components["schemas"]["Date"];
            current_job: components["schemas"]["ProvisionerDaemonJob"] | null;
            id: components["schemas"]["UUID"];
            key_id: components["schemas"]["UUID"];
            key_name: string | null;
            last_seen_at?: components["schemas"]["Date"];
            name: string;
            organization_id: components["schemas"]["UUID"];
            previous_job: components["schemas"]["ProvisionerDaemonJob"] | null;
            provisioners: string[];
            status: ("offline" | "idle" | "busy") | null;
            tags: {
                [key: string]: string;
            };
            version: string;
        };
        ProvisionerDaemonJob: {
            id: components["schemas"]["UUID"];
            /** @enum {string} */
            status: "pending" | "running" | "succeeded" | "canceling" | "canceled" | "failed" | "unknown";
            template_display_name: string;
            template_icon: string;
            template_name: string;
        };
        ProvisionerHost: {
            containers: components["schemas"]["Int"];
            cpus: components["schemas"]["Int"];
            cpus_promised: number;
            daemons: string[];
            disk_free_bytes: components["schemas"]["Int"] | null;
            draining: boolean;
            first_seen_at: components["schemas"]["Date"];
            last_seen_at: components["schemas"]["Date"];
            memory_bytes: components["schemas"]["Int"];
            memory_promised_bytes: components["schemas"]["Int"];
            name: string;
            organization_id: components["schemas"]["UUID"];
            provisioners: string[];
            /** @enum {string} */
            status: "connected" | "offline";
            tags: {
                [key: string]: string;
            };
            version: string;
        };
        ProvisionerJob: {
            available_workers?: components["schemas"]["UUID"][];
            canceled_at?: components["schemas"]["Date"];
            completed_at?: components["schemas"]["Date"];
            created_at: components["schemas"]["Date"];
            error?: string;
            /** @enum {string} */
            error_code?: "REQUIRED_TEMPLATE_VARIABLES";
            file_id: components["schemas"]["UUID"];
            id: components["schemas"]["UUID"];
            initiator_id: components["schemas"]["UUID"];
            input: components["schemas"]["ProvisionerJobInput"];
            logs_overflowed: boolean;
            metadata: components["schemas"]["ProvisionerJobMetadata"];
            organization_id: components["schemas"]["UUID"];
            queue_position: components["schemas"]["Int"];
            queue_size: components["schemas"]["Int"];
            started_at?: components["schemas"]["Date"];
            /** @enum {string} */
            status: "pending" | "running" | "succeeded" | "canceling" | "canceled" | "failed" | "unknown";
            tags: {
                [key: string]: string;
            };
            /** @enum {string} */
            type: "template_version_import" | "workspace_build" | "template_version_dry_run" | "workspace_move";
            worker_id?: components["schemas"]["UUID"];
            worker_name?: string;
        };
        ProvisionerJobInput: {
            error?: string;
            template_version_id?: components["schemas"]["UUID"];
            workspace_build_id?: components["schemas"]["UUID"];
            workspace_move_id?: components["schemas"]["UUID"];
        };
        ProvisionerJobLog: {
            created_at: components["schemas"]["Date"];
            id: components["schemas"]["Int"];
            /** @enum {string} */
            log_level: "trace" | "debug" | "info" | "warn" | "error";
            /** @enum {string} */
            log_source: "provisioner_daemon" | "provisioner";
            output: string;
            stage: string;
        };
        ProvisionerJobMetadata: {
            template_display_name: string;
            template_icon: string;
            template_id: components["schemas"]["UUID"];
            template_name: string;
            template_version_name: string;
            /** @enum {string} */
            workspace_build_transition?: "start" | "stop" | "delete";
            workspace_id?: components["schemas"]["UUID"];
            workspace_name?: string;
        };
        ProvisionerKey: {
            created_at: components["schemas"]["Date"];
            id: components["schemas"]["UUID"];
            name: string;
            organization: components["schemas"]["UUID"];
            tags: {
                [key: string]: string;
            };
        };
        ProvisionerKeyDaemons: {
            daemons: components["schemas"]["ProvisionerDaemon"][];
            key: components["schemas"]["ProvisionerKey"];
        };
        ProvisionerTiming: {
            action: string;
            ended_at: components["schemas"]["Date"];
            job_id: components["schemas"]["UUID"];
            resource: string;
            source: string;
            /** @enum {string} */
            stage: "init" | "plan" | "graph" | "apply" | "start" | "stop" | "cron" | "connect";
            started_at: components["schemas"]["Date"];
        };
        ProxyHealthReport: {
            errors: string[];
            warnings: string[];
        };
        PutExtendWorkspaceRequest: {
            deadline: components["schemas"]["DateFromString"];
        };
        PutGroupAIBudgetRequest: {
            /**
             * nonNegative
             * @description a non-negative number
             */
            spend_limit_micros: number;
        };
        /** @enum {string} */
        RBACResource: "*" | "ai_model_price" | "ai_provider" | "ai_seat" | "aibridge_interception" | "api_key" | "assign_org_role" | "assign_role" | "audit_log" | "boundary_usage" | "chat" | "connection_log" | "crypto_key" | "debug_info" | "deployment_config" | "deployment_stats" | "file" | "group" | "group_member" | "idpsync_settings" | "inbox_notification" | "license" | "notification_message" | "notification_preference" | "notification_template" | "oauth2_app" | "oauth2_app_code_token" | "oauth2_app_secret" | "organization" | "organization_member" | "prebuilt_workspace" | "provisioner_daemon" | "provisioner_jobs" | "replicas" | "system" | "tailnet_coordinator" | "task" | "template" | "usage_event" | "user" | "user_secret" | "user_skill" | "webpush_subscription" | "workspace" | "workspace_agent_devcontainers" | "workspace_agent_resource_monitor" | "workspace_dormant" | "workspace_proxy";
        ReducedUser: {
            avatar_url?: string;
            created_at: components["schemas"]["Date"];
            email: string;
            id: components["schemas"]["UUID"];
            is_service_account?: boolean;
            last_seen_at: components["schemas"]["Date"];
            /** @enum {string} */
            login_type: "" | "github" | "none" | "oidc" | "password" | "token";
            name?: string;
            /** @enum {string} */
            status: "active" | "suspended";
            theme_preference?: string;
            updated_at: components["schemas"]["Date"];
            username: string;
        };
        Region: {
            display_name: string;
            healthy: boolean;
            icon_url: string;
            id: string;
            name: string;
            path_app_url: string;
            wildcard_hostname: string;
        };
        RegionsResponse: {
            regions: components["schemas"]["Region"][];
        };
        RegisterWorkspaceProxyRequest: {
            /**
             * maxLength(2048)
             * @description a string at most 2048 character(s) long
             */
            access_url: string;
            derp_enabled?: boolean | null;
            derp_only?: boolean | null;
            /**
             * maxLength(4096)
             * @description a string at most 4096 character(s) long
             */
            replica_error?: string | null;
            /**
             * maxLength(512)
             * @description a string at most 512 character(s) long
             */
            replica_hostname?: string | null;
            /**
             * Format: uuid
             * @description a Universally Unique Identifier
             */
            replica_id: string;
            /**
             * maxLength(2048)
             * @description a string at most 2048 character(s) long
             */
            replica_relay_address?: string | null;
            /**
             * maxLength(128)
             * @description a string at most 128 character(s) long
             */
            version?: string | null;
            /**
             * maxLength(512)
             * @description a string at most 512 character(s) long
             */
            wildcard_hostname?: string | null;
        };
        RegisterWorkspaceProxyResponse: {
            deployment_id: string;
            derp_force_websockets: boolean;
            derp_mesh_key: string;
            derp_region_id: components["schemas"]["Int"];
            sibling_replicas: unknown[];
        };
        Replica: {
            created_at: components["schemas"]["Date"];
            database_latency: components["schemas"]["Int"];
            error: string;
            hostname: string;
            id: string;
            region_id: components["schemas"]["Int"];
            relay_address: string;
        };
        ReportConnectionRequest: {
            connection: {
                /** @enum {string} */
                action: "connect" | "disconnect";
                /**
                 * Format: uuid
                 * @description a Universally Unique Identifier
                 */
                id: string;
                /**
                 * maxLength(64)
                 * @description a string at most 64 character(s) long
                 */
                ip?: string;
                /**
                 * maxLength(1024)
                 * @description a string at most 1024 character(s) long
                 */
                reason?: string;
                /**
                 * maxLength(256)
                 * @description a string at most 256 character(s) long
                 */
                slug_or_port?: string;
                /**
                 * int
                 * @description an integer
                 */
                status_code?: number;
                timestamp?: components["schemas"]["DateFromString"];
                /** @enum {string} */
                type: "ssh" | "vscode" | "jetbrains" | "reconnecting_pty" | "port_forwarding";
            };
        };
        ResolveAutostartResponse: {
            parameter_mismatch: boolean;
        };
        Response: {
            detail?: string;
            message: string;
            validations?: components["schemas"]["Validation"][];
        };
        Role: {
            display_name: string;
            name: string;
            organization_id?: components["schemas"]["UUID"];
            organization_permissions: components["schemas"]["Permission"][];
            site_permissions: components["schemas"]["Permission"][];
            user_permissions: components["schemas"]["Permission"][];
        };
        RoleSyncSettings: {
            field: string;
            mapping: {
                [key: string]: string[];
            };
        };
        RoleSyncSettingsRequest: {
            /**
             * maxLength(256)
             * @description a string at most 256 character(s) long
             */
            field?: string | null;
            mapping?: {
                [key: string]: string[];
            } | null;
        };
        /** @enum {string} */
        ShareableWorkspaceOwners: "none" | "everyone" | "service_accounts";
        SharedWorkspaceActor: {
            /** @enum {string} */
            actor_type: "group" | "user";
            avatar_url?: string;
            id: components["schemas"]["UUID"];
            name: string;
            roles: ("admin" | "use")[];
        };
        SlimRole: {
            display_name: string;
            name: string;
            organization_id?: string;
        };
        SSHConfigResponse: {
            hostname_prefix: string;
            hostname_suffix: string;
            ssh_config_options: {
                [key: string]: string;
            };
        };
        Task: {
            created_at: components["schemas"]["Date"];
            current_state: components["schemas"]["TaskStateEntry"] | null;
            display_name: string;
            id: components["schemas"]["UUID"];
            initial_prompt: string;
            name: string;
            organization_id: components["schemas"]["UUID"];
            owner_avatar_url?: string;
            owner_id: components["schemas"]["UUID"];
            owner_name: string;
            /** @enum {string} */
            status: "pending" | "initializing" | "active" | "paused" | "unknown" | "error";
            template_display_name: string;
            template_icon: string;
            template_id: components["schemas"]["UUID"];
            template_name: string;
            template_version_id: components["schemas"]["UUID"];
            updated_at: components["schemas"]["Date"];
            workspace_agent_health: components["schemas"]["WorkspaceAgentHealth"] | null;
            workspace_agent_id: components["schemas"]["NullUUID"];
            workspace_agent_lifecycle: ("created" | "starting" | "start_timeout" | "start_error" | "ready" | "shutting_down" | "shutdown_timeout" | "shutdown_error" | "off") | null;
            workspace_app_id: components["schemas"]["NullUUID"];
            workspace_build_number?: components["schemas"]["Int"];
            workspace_id: components["schemas"]["NullUUID"];
            workspace_name: string;
            /** @enum {string} */
            workspace_status?: "pending" | "starting" | "running" | "stopping" | "stopped" | "failed" | "canceling" | "canceled" | "deleting" | "deleted";
        };
        TaskLogEntry: {
            content: string;
            id: components["schemas"]["Int"];
            time: components["schemas"]["Date"];
            /** @enum {string} */
            type: "input" | "output";
        };
        TaskLogSnapshotRequest: {
            messages: {
                content: string;
                /**
                 * nonNegative
                 * @description a non-negative number
                 */
                id: components["schemas"]["Int"];
                /** @enum {string} */
                role: "user" | "agent";
                time: components["schemas"]["Date"];
            }[];
        };
        TaskLogsResponse: {
            logs: components["schemas"]["TaskLogEntry"][];
            snapshot?: boolean;
            snapshot_at?: components["schemas"]["Date"];
        };
        TaskSendRequest: {
            /**
             * maxLength(65536)
             * @description a string at most 65536 character(s) long
             */
            input: string;
        };
        TasksListResponse: {
            count: components["schemas"]["Int"];
            tasks: components["schemas"]["Task"][];
        };
        TaskStateEntry: {
            message: string;
            /** @enum {string} */
            state: "working" | "idle" | "complete" | "failed";
            timestamp: components["schemas"]["Date"];
            uri: string;
        };
        Template: {
            active_user_count: components["schemas"]["Int"];
            active_version_id: components["schemas"]["UUID"];
            activity_bump_ms: components["schemas"]["Int"];
            allow_user_autostart: boolean;
            allow_user_autostop: boolean;
            allow_user_cancel_workspace_jobs: boolean;
            autostart_requirement: components["schemas"]["TemplateAutostartRequirement"];
            autostop_requirement: components["schemas"]["TemplateAutostopRequirement"];
            build_time_stats: {
                [key: string]: components["schemas"]["TransitionStats"];
            };
            cors_behavior: string;
            created_at: components["schemas"]["Date"];
            created_by_id: components["schemas"]["UUID"];
            created_by_name: string;
            default_ttl_ms: components["schemas"]["Int"];
            deleted: boolean;
            deprecated: boolean;
            deprecation_message: string;
            description: string;
            display_name: string;
            failure_ttl_ms: components["schemas"]["Int"];
            icon: string;
            id: components["schemas"]["UUID"];
            max_port_share_level: string;
            name: string;
            organization_display_name: string;
            organization_icon: string;
            organization_id: components["schemas"]["UUID"];
            organization_name: string;
            provisioner: string;
            require_active_version: boolean;
            time_til_dormant_autodelete_ms: components["schemas"]["Int"];
            time_til_dormant_ms: components["schemas"]["Int"];
            updated_at: components["schemas"]["Date"];
            use_classic_parameter_flow: boolean;
        };
        TemplateACL: {
            group: components["schemas"]["TemplateGroup"][];
            users: components["schemas"]["TemplateUser"][];
        };
        TemplateAppUsage: {
            display_name: string;
            icon: string;
            seconds: components["schemas"]["Int"];
            slug: string;
            template_ids: string[];
            times_used: components["schemas"]["Int"];
            /** @enum {string} */
            type: "builtin" | "app";
        };
        TemplateAutostartRequirement: {
            days_of_week: string[];
        };
        TemplateAutostopRequirement: {
            days_of_week: string[];
            weeks: components["schemas"]["Int"];
        };
        TemplateExample: {
            description: string;
            icon: string;
            id: string;
            markdown: string;
            name: string;
            tags: string[];
            url: string;
        };
        TemplateGroup: {
            avatar_url?: string;
            display_name: string;
            id: components["schemas"]["UUID"];
            members: components["schemas"]["ReducedUser"][];
            name: string;
            organization_display_name: string;
            organization_id: components["schemas"]["UUID"];
            organization_name: string;
            quota_allowance: components["schemas"]["Int"];
            /** @enum {string} */
            role: "admin" | "use";
            /** @enum {string} */
            source: "oidc" | "user";
            total_member_count: components["schemas"]["Int"];
        };
        TemplateInsightsIntervalReport: {
            active_users: components["schemas"]["Int"];
            end_time: string;
            /** @enum {string} */
            interval: "day" | "week";
            start_time: string;
            template_ids: string[];
        };
        TemplateInsightsReport: {
            active_users: components["schemas"]["Int"];
            apps_usage: components["schemas"]["TemplateAppUsage"][];
            end_time: string;
            parameters_usage: components["schemas"]["TemplateParameterUsage"][];
            start_time: string;
            template_ids: string[];
        };
        TemplateInsightsResponse: {
            interval_reports: components["schemas"]["TemplateInsightsIntervalReport"][];
            report: components["schemas"]["TemplateInsightsReport"];
        };
        TemplateParameterUsage: {
            description: string;
            display_name: string;
            name: string;
            options?: {
                description: string;
                icon: string;
                name: string;
                value: string;
            }[];
            template_ids: string[];
            type: string;
            values: {
                count: components["schemas"]["Int"];
                value: string;
            }[];
        };
        TemplateUser: {
            avatar_url?: string;
            created_at: components["schemas"]["Date"];
            email: string;
            has_ai_seat: boolean;
            id: components["schemas"]["UUID"];
            is_service_account?: boolean;
            last_seen_at: components["schemas"]["Date"];
            /** @enum {string} */
            login_type: "" | "github" | "none" | "oidc" | "password" | "token";
            name?: string;
            organization_ids: components["schemas"]["UUID"][];
            /** @enum {string} */
            role: "admin" | "use";
            roles: components["schemas"]["SlimRole"][];
            /** @enum {string} */
            status: "active" | "suspended";
            theme_preference?: string;
            updated_at: components["schemas"]["Date"];
            username: string;
        };
        TemplateVersion: {
            archived: boolean;
            created_at: components["schemas"]["Date"];
            created_by: components["schemas"]["MinimalUser"];
            has_ai_task: boolean;
            has_external_agent: boolean;
            id: components["schemas"]["UUID"];
            job: components["schemas"]["ProvisionerJob"];
            matched_provisioners?: components["schemas"]["MatchedProvisioners"];
            message: string;
            name: string;
            organization_id: components["schemas"]["UUID"];
            readme: string;
            template_id: components["schemas"]["UUID"];
            updated_at: components["schemas"]["Date"];
            warnings?: "UNSUPPORTED_WORKSPACES"[];
        };
        TemplateVersionExternalAuth: {
            authenticate_url: string;
            authenticated: boolean;
            display_icon: string;
            display_name: string;
            id: string;
            optional?: boolean;
            type: string;
        };
        TemplateVersionParameter: {
            default_value: string;
            description: string;
            description_plaintext: string;
            display_name?: string;
            ephemeral: boolean;
            /** @enum {string} */
            form_type: "" | "radio" | "slider" | "input" | "dropdown" | "checkbox" | "switch" | "multi-select" | "tag-select" | "textarea" | "error";
            icon: string;
            mutable: boolean;
            name: string;
            options: components["schemas"]["TemplateVersionParameterOption"][];
            required: boolean;
            /** @enum {string} */
            type: "string" | "number" | "bool" | "list(string)";
            validation_error?: string;
            validation_max?: number;
            validation_min?: number;
            /** @enum {string} */
            validation_monotonic?: "increasing" | "decreasing";
            validation_regex?: string;
        };
        TemplateVersionParameterOption: {
            description: string;
            icon: string;
            name: string;
            value: string;
        };
        TemplateVersionVariable: {
            default_value: string;
            description: string;
            name: string;
            required: boolean;
            sensitive: boolean;
            /** @enum {string} */
            type: "string" | "number" | "bool";
            value: string;
        };
        TransitionStats: {
            P50: components["schemas"]["Int"] | null;
            P95: components["schemas"]["Int"] | null;
        };
        Unauthorized: {
            /** @enum {string} */
            _tag: "Unauthorized";
            detail?: string;
            message: string;
            validations?: components["schemas"]["Validation"][];
        };
        UpdateActiveTemplateVersion: {
            /**
             * Format: uuid
             * @description a Universally Unique Identifier
             */
            id: string;
        };
        UpdateAppearanceConfig: {
            announcement_banners?: {
                /**
                 * maxLength(32)
                 * @description a string at most 32 character(s) long
                 */
                background_color?: string | null;
                enabled?: boolean | null;
                /**
                 * maxLength(2048)
                 * @description a string at most 2048 character(s) long
                 */
                message?: string | null;
            }[] | null;
            /**
             * maxLength(128)
             * @description a string at most 128 character(s) long
             */
            application_name?: string | null;
            /**
             * maxLength(8192)
             * @description a string at most 8192 character(s) long
             */
            logo_url?: string | null;
            service_banner?: {
                /**
                 * maxLength(32)
                 * @description a string at most 32 character(s) long
                 */
                background_color?: string | null;
                enabled?: boolean | null;
                /**
                 * maxLength(2048)
                 * @description a string at most 2048 character(s) long
                 */
                message?: string | null;
            } | null;
        };
        UpdateCheckResponse: {
            current: boolean;
            url: string;
            version: string;
        };
        UpdateHealthSettings: {
            /**
             * maxItems(64)
             * @description an array of at most 64 item(s)
             */
            dismissed_healthchecks?: components["schemas"]["HealthSection"][] | null;
        };
        UpdateInboxNotificationReadStatusRequest: {
            is_read: boolean;
        };
        UpdateInboxNotificationReadStatusResponse: {
            notification: components["schemas"]["InboxNotification"];
            unread_count: components["schemas"]["Int"];
        };
        UpdateNotificationsSettings: {
            notifier_paused: boolean;
        };
        UpdateNotificationTemplateMethod: {
            /**
             * maxLength(64)
             * @description a string at most 64 character(s) long
             */
            method?: string | null;
        };
        UpdateOrganizationRequest: {
            /**
             * maxLength(128)
             * @description a string at most 128 character(s) long
             */
            description?: string | null;
            /**
             * maxLength(64)
             * @description a string at most 64 character(s) long
             */
            display_name?: string | null;
            /**
             * maxLength(256)
             * @description a string at most 256 character(s) long
             */
            icon?: string | null;
            name?: string | null;
        };
        UpdatePrebuildsSettings: {
            reconciliation_paused: boolean;
        };
        UpdateRoles: {
            roles: string[];
        };
        UpdateTaskInputRequest: {
            /**
             * maxLength(65536)
             * @description a string at most 65536 character(s) long
             */
            input: string;
        };
        UpdateTemplateACL: {
            group_perms?: {
                [key: string]: string;
            } | null;
            user_perms?: {
                [key: string]: string;
            } | null;
        };
        UpdateTemplateMeta: {
            activity_bump_ms?: number | null;
            allow_user_autostart?: boolean | null;
            allow_user_autostop?: boolean | null;
            allow_user_cancel_workspace_jobs?: boolean | null;
            autostart_requirement?: {
                days_of_week?: string[] | null;
            } | null;
            autostop_requirement?: {
                days_of_week?: string[] | null;
                /**
                 * int
                 * @description an integer
                 */
                weeks?: number | null;
            } | null;
            cors_behavior?: ("simple" | "passthru") | null;
            default_ttl_ms?: number | null;
            /**
             * maxLength(1024)
             * @description a string at most 1024 character(s) long
             */
            deprecation_message?: string | null;
            /**
             * maxLength(128)
             * @description a string at most 128 character(s) long
             */
            description?: string | null;
            disable_everyone_group_access?: boolean | null;
            /**
             * maxLength(64)
             * @description a string at most 64 character(s) long
             */
            display_name?: string | null;
            failure_ttl_ms?: number | null;
            /**
             * maxLength(256)
             * @description a string at most 256 character(s) long
             */
            icon?: string | null;
            max_port_share_level?: ("owner" | "authenticated" | "organization" | "public") | null;
            name?: ("" | string) | null;
            require_active_version?: boolean | null;
            time_til_dormant_autodelete_ms?: number | null;
            time_til_dormant_ms?: number | null;
            update_workspace_dormant_at?: boolean | null;
            update_workspace_last_used_at?: boolean | null;
            use_classic_parameter_flow?: boolean | null;
        };
        UpdateUserAppearanceSettingsRequest: {
            terminal_font?: ("" | "ibm-plex-mono" | "fira-code" | "source-code-pro" | "jetbrains-mono") | null;
            /**
             * maxLength(64)
             * @description a string at most 64 character(s) long
             */
            theme_dark?: string | null;
            /**
             * maxLength(64)
             * @description a string at most 64 character(s) long
             */
            theme_light?: string | null;
            /**
             * maxLength(64)
             * @description a string at most 64 character(s) long
             */
            theme_mode?: string | null;
            /**
             * maxLength(64)
             * @description a string at most 64 character(s) long
             */
            theme_preference?: string | null;
        };
        UpdateUserNotificationPreferences: {
            template_disabled_map: {
                [key: string]: boolean;
            };
        };
        UpdateUserPasswordRequest: {
            old_password?: string | null;
            password: string;
        };
        UpdateUserPreferenceSettingsRequest: {
            agent_chat_send_shortcut?: components["schemas"]["AgentChatSendShortcut"] | null;
            code_diff_display_mode?: components["schemas"]["DisplayMode"] | null;
            collapse_assistant_steps?: boolean | null;
            shell_tool_display_mode?: components["schemas"]["DisplayMode"] | null;
            thinking_display_mode?: components["schemas"]["DisplayMode"] | null;
        };
        UpdateUserProfileRequest: {
            /**
             * maxLength(128)
             * @description a string at most 128 character(s) long
             */
            name?: string | null;
            /**
             * maxLength(32)
             * @description a string matching the pattern ^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$
             */
            username: string;
        };
        UpdateWorkspaceACL: {
            group_roles?: {
                [key: string]: string;
            } | null;
            user_roles?: {
                [key: string]: string;
            } | null;
        };
        UpdateWorkspaceAutomaticUpdatesRequest: {
            /** @enum {string} */
            automatic_updates: "always" | "never";
        };
        UpdateWorkspaceAutostartRequest: {
            /**
             * maxLength(256)
             * @description a string at most 256 character(s) long
             */
            schedule?: string | null;
        };
        UpdateWorkspaceBuildStateRequest: {
            state: string | unknown[];
        };
        UpdateWorkspaceDormancy: {
            dormant: boolean;
        };
        UpdateWorkspaceProxyResponse: {
            proxy: components["schemas"]["WorkspaceProxy"];
            proxy_token: string;
        };
        UpdateWorkspaceRequest: {
            name?: ("" | string) | null;
        };
        UpdateWorkspaceSharingSettingsRequest: {
            shareable_workspace_owners?: (components["schemas"]["ShareableWorkspaceOwners"] | "") | null;
            sharing_disabled?: boolean | null;
        };
        UpdateWorkspaceTTLRequest: {
            ttl_ms?: (components["schemas"]["Int"] | null) | null;
        };
        UploadResponse: {
            hash: components["schemas"]["UUID"];
        };
        UpsertWorkspaceAgentPortShareRequest: {
            /**
             * minLength(1)
             * @description a string at least 1 character(s) long
             */
            agent_name: string;
            /**
             * between(9, 65535)
             * @description a number between 9 and 65535
             */
            port: number;
            /** @enum {string} */
            protocol: "http" | "https";
            /** @enum {string} */
            share_level: "authenticated" | "organization" | "public";
        };
        UsagePeriod: {
            end: components["schemas"]["Date"];
            issued_at: components["schemas"]["Date"];
            start: components["schemas"]["Date"];
        };
        User: {
            avatar_url?: string;
            created_at: components["schemas"]["Date"];
            email: string;
            has_ai_seat: boolean;
            id: components["schemas"]["UUID"];
            is_service_account?: boolean;
            last_seen_at: components["schemas"]["Date"];
            /** @enum {string} */
            login_type: "" | "github" | "none" | "oidc" | "password" | "token";
            name?: string;
            organization_ids: components["schemas"]["UUID"][];
            roles: components["schemas"]["SlimRole"][];
            /** @enum {string} */
            status: "active" | "suspended";
            theme_preference?: string;
            updated_at: components["schemas"]["Date"];
            username: string;
        };
        UserActivity: {
            avatar_url: string;
            seconds: components["schemas"]["Int"];
            template_ids: string[];
            user_id: string;
            username: string;
        };
        UserActivityInsightsResponse: {
            report: {
                end_time: string;
                start_time: string;
                template_ids: string[];
                users: components["schemas"]["UserActivity"][];
            };
        };
        UserAppearanceSettings: {
            terminal_font: string;
            theme_dark: string;
            theme_light: string;
            theme_mode: string;
            theme_preference: string;
        };
        UserLatency: {
            avatar_url: string;
            latency_ms: {
                p50: number;
                p95: number;
            };
            template_ids: string[];
            user_id: string;
            username: string;
        };
        UserLatencyInsightsResponse: {
            report: {
                end_time: string;
                start_time: string;
                template_ids: string[];
                users: components["schemas"]["UserLatency"][];
            };
        };
        UserLoginType: {
            /** @enum {string} */
            login_type: "" | "github" | "none" | "oidc" | "password" | "token";
        };
        UserPreferenceSettings: {
            agent_chat_send_shortcut: components["schemas"]["AgentChatSendShortcut"];
            code_diff_display_mode: components["schemas"]["DisplayMode"];
            collapse_assistant_steps: boolean;
            shell_tool_display_mode: components["schemas"]["DisplayMode"];
            thinking_display_mode: components["schemas"]["DisplayMode"];
        };
        UserQuietHoursScheduleResponse: {
            next: components["schemas"]["Date"];
            raw_schedule: string;
            time: string;
            timezone: string;
            user_can_set: boolean;
            user_set: boolean;
        };
        UserRoles: {
            organization_roles: {
                [key: string]: string[];
            };
            roles: string[];
        };
        UserStatusChangeCount: {
            count: components["schemas"]["Int"];
            date: string;
        };
        /**
         * Format: uuid
         * @description a Universally Unique Identifier
         */
        UUID: string;
        Validation: {
            detail: string;
            field: string;
        };
        VariableValue: {
            /**
             * minLength(1)
             * @description a string at least 1 character(s) long
             */
            name: string;
            /**
             * maxLength(65536)
             * @description a string at most 65536 character(s) long
             */
            value: string;
        };
        Workspace: {
            allow_renames: boolean;
            /** @enum {string} */
            automatic_updates: "always" | "never";
            autostart_schedule?: string;
            created_at: components["schemas"]["Date"];
            deleting_at: components["schemas"]["Date"] | null;
            dormant_at: components["schemas"]["Date"] | null;
            favorite: boolean;
            health: components["schemas"]["WorkspaceHealth"];
            id: components["schemas"]["UUID"];
            is_prebuild: boolean;
            last_used_at: components["schemas"]["Date"];
            latest_app_status: components["schemas"]["WorkspaceAppStatus"] | null;
            latest_build: components["schemas"]["WorkspaceBuild"];
            name: string;
            next_start_at: components["schemas"]["Date"] | null;
            organization_id: components["schemas"]["UUID"];
            organization_name: string;
            outdated: boolean;
            owner_avatar_url: string;
            owner_id: components["schemas"]["UUID"];
            owner_name: string;
            shared_with: components["schemas"]["SharedWorkspaceActor"][];
            task_id?: components["schemas"]["NullUUID"];
            template_active_version_id: components["schemas"]["UUID"];
            template_allow_user_cancel_workspace_jobs: boolean;
            template_display_name: string;
            template_icon: string;
            template_id: components["schemas"]["UUID"];
            template_name: string;
            template_require_active_version: boolean;
            template_use_classic_parameter_flow: boolean;
            ttl_ms?: components["schemas"]["Int"];
            updated_at: components["schemas"]["Date"];
        };
        WorkspaceACL: {
            group: components["schemas"]["WorkspaceGroup"][];
            users: components["schemas"]["WorkspaceUser"][];
        };
        WorkspaceAgent: {
            api_version: string;
            apps: components["schemas"]["WorkspaceApp"][];
            architecture: string;
            connection_timeout_seconds: components["schemas"]["Int"];
            created_at: components["schemas"]["Date"];
            directory?: string;
            disconnected_at?: components["schemas"]["Date"];
            display_apps: ("vscode" | "vscode_insiders" | "web_terminal" | "port_forwarding_helper" | "ssh_helper")[];
            environment_variables: {
                [key: string]: string;
            };
            expanded_directory?: string;
            first_connected_at?: components["schemas"]["Date"];
            health: components["schemas"]["WorkspaceAgentHealth"];
            id: components["schemas"]["UUID"];
            instance_id?: string;
            last_connected_at?: components["schemas"]["Date"];
            latency?: {
                [key: string]: {
                    latency_ms: number;
                    preferred: boolean;
                };
            };
            /** @enum {string} */
            lifecycle_state: "created" | "starting" | "start_timeout" | "start_error" | "ready" | "shutting_down" | "shutdown_timeout" | "shutdown_error" | "off";
            log_sources: components["schemas"]["WorkspaceAgentLogSource"][];
            logs_length: components["schemas"]["Int"];
            logs_overflowed: boolean;
            name: string;
            operating_system: string;
            parent_id: components["schemas"]["UUID"] | null;
            ready_at?: components["schemas"]["Date"];
            resource_id: components["schemas"]["UUID"];
            scripts: components["schemas"]["WorkspaceAgentScript"][];
            started_at?: components["schemas"]["Date"];
            /** @enum {string} */
            startup_script_behavior: "blocking" | "non-blocking";
            /** @enum {string} */
            status: "connecting" | "connected" | "disconnected" | "timeout";
            subsystems: string[];
            troubleshooting_url: string;
            updated_at: components["schemas"]["Date"];
            version: string;
        };
        WorkspaceAgentContainer: {
            created_at: components["schemas"]["Date"];
            id: string;
            image: string;
            labels: {
                [key: string]: string;
            };
            name: string;
            ports: components["schemas"]["WorkspaceAgentContainerPort"][];
            running: boolean;
            status: string;
            volumes: {
                [key: string]: string;
            };
        };
        WorkspaceAgentContainerPort: {
            host_ip?: string;
            host_port?: components["schemas"]["Int"];
            network: string;
            port: components["schemas"]["Int"];
        };
        WorkspaceAgentDevcontainer: {
            agent?: components["schemas"]["WorkspaceAgentDevcontainerAgent"];
            config_path?: string;
            container?: components["schemas"]["WorkspaceAgentContainer"];
            dirty: boolean;
            error?: string;
            id: components["schemas"]["UUID"];
            name: string;
            /** @enum {string} */
            status: "running" | "stopped" | "starting" | "error";
            workspace_folder: string;
        };
        WorkspaceAgentDevcontainerAgent: {
            directory: string;
            id: components["schemas"]["UUID"];
            name: string;
        };
        WorkspaceAgentHealth: {
            healthy: boolean;
            reason?: string;
        };
        WorkspaceAgentListContainersResponse: {
            containers: components["schemas"]["WorkspaceAgentContainer"][];
            devcontainers: components["schemas"]["WorkspaceAgentDevcontainer"][];
            warnings?: string[];
        };
        WorkspaceAgentListeningPort: {
            network: string;
            port: components["schemas"]["Int"];
            process_name: string;
        };
        WorkspaceAgentListeningPortsResponse: {
            ports: components["schemas"]["WorkspaceAgentListeningPort"][];
        };
        WorkspaceAgentLog: {
            created_at: components["schemas"]["Date"];
            id: components["schemas"]["Int"];
            /** @enum {string} */
            level: "trace" | "debug" | "info" | "warn" | "error";
            output: string;
            source_id: components["schemas"]["UUID"];
        };
        WorkspaceAgentLogSource: {
            created_at: components["schemas"]["Date"];
            display_name: string;
            icon: string;
            id: components["schemas"]["UUID"];
            workspace_agent_id: components["schemas"]["UUID"];
        };
        WorkspaceAgentMetadataDescription: {
            display_name: string;
            interval: components["schemas"]["Int"];
            key: string;
            script: string;
            timeout: components["schemas"]["Int"];
        };
        WorkspaceAgentPortShare: {
            agent_name: string;
            port: components["schemas"]["Int"];
            /** @enum {string} */
            protocol: "http" | "https";
            /** @enum {string} */
            share_level: "owner" | "authenticated" | "organization" | "public";
            workspace_id: components["schemas"]["UUID"];
        };
        WorkspaceAgentPortShares: {
            shares: components["schemas"]["WorkspaceAgentPortShare"][];
        };
        WorkspaceAgentScript: {
            cron: string;
            display_name: string;
            exit_code?: components["schemas"]["Int"];
            id: components["schemas"]["UUID"];
            log_path: string;
            log_source_id: components["schemas"]["UUID"];
            run_on_start: boolean;
            run_on_stop: boolean;
            script: string;
            start_blocks_login: boolean;
            /** @enum {string} */
            status?: "ok" | "exit_failure" | "timed_out" | "pipes_left_open";
            timeout: number;
        };
        WorkspaceApp: {
            command?: string;
            display_name?: string;
            external: boolean;
            group?: string;
            /** @enum {string} */
            health: "disabled" | "initializing" | "healthy" | "unhealthy";
            healthcheck: components["schemas"]["Healthcheck"];
            hidden: boolean;
            icon?: string;
            id: components["schemas"]["UUID"];
            /** @enum {string} */
            open_in: "slim-window" | "tab";
            /** @enum {string} */
            sharing_level: "owner" | "authenticated" | "organization" | "public";
            slug: string;
            statuses: components["schemas"]["WorkspaceAppStatus"][];
            subdomain: boolean;
            subdomain_name?: string;
            tooltip?: string;
            url?: string;
        };
        WorkspaceAppStatus: {
            agent_id: components["schemas"]["UUID"];
            app_id: components["schemas"]["UUID"];
            created_at: components["schemas"]["Date"];
            icon: string;
            id: components["schemas"]["UUID"];
            message: string;
            needs_user_attention: boolean;
            /** @enum {string} */
            state: "working" | "idle" | "complete" | "failure";
            uri: string;
            workspace_id: components["schemas"]["UUID"];
        };
        WorkspaceBuild: {
            build_number: components["schemas"]["Int"];
            created_at: components["schemas"]["Date"];
            daily_cost: components["schemas"]["Int"];
            deadline?: components["schemas"]["Date"];
            has_ai_task?: boolean;
            has_external_agent?: boolean;
            id: components["schemas"]["UUID"];
            initiator_id: components["schemas"]["UUID"];
            initiator_name: string;
            job: components["schemas"]["ProvisionerJob"];
            matched_provisioners?: components["schemas"]["MatchedProvisioners"];
            max_deadline?: components["schemas"]["Date"];
            /** @enum {string} */
            reason: "initiator" | "autostart" | "autostop" | "dormancy" | "failedstop" | "autodelete" | "task_auto_pause" | "task_manual_pause" | "task_resume";
            resources: components["schemas"]["WorkspaceResource"][];
            /** @enum {string} */
            status: "pending" | "starting" | "running" | "stopping" | "stopped" | "failed" | "canceling" | "canceled" | "deleting" | "deleted";
            template_version_id: components["schemas"]["UUID"];
            template_version_name: string;
            template_version_preset_id: components["schemas"]["UUID"] | null;
            /** @enum {string} */
            transition: "start" | "stop" | "delete";
            updated_at: components["schemas"]["Date"];
            workspace_id: components["schemas"]["UUID"];
            workspace_name: string;
            workspace_owner_avatar_url?: string;
            workspace_owner_id: components["schemas"]["UUID"];
            workspace_owner_name?: string;
        };
        WorkspaceBuildParameter: {
            name: string;
            value: string;
        };
        WorkspaceBuildTimings: {
            agent_connection_timings: components["schemas"]["AgentConnectionTiming"][];
            agent_script_timings: components["schemas"]["AgentScriptTiming"][];
            provisioner_timings: components["schemas"]["ProvisionerTiming"][];
        };
        WorkspaceGroup: {
            avatar_url?: string;
            display_name: string;
            id: components["schemas"]["UUID"];
            members: components["schemas"]["ReducedUser"][];
            name: string;
            organization_display_name: string;
            organization_id: components["schemas"]["UUID"];
            organization_name: string;
            quota_allowance: components["schemas"]["Int"];
            /** @enum {string} */
            role: "admin" | "use";
            /** @enum {string} */
            source: "oidc" | "user";
            total_member_count: components["schemas"]["Int"];
        };
        WorkspaceHealth: {
            failing_agents: components["schemas"]["UUID"][];
            healthy: boolean;
        };
        WorkspaceMove: {
            cleanup_job_id: components["schemas"]["UUID"] | null;
            /** @enum {string} */
            cleanup_status: "none" | "pending" | "running" | "succeeded" | "failed";
            completed_at: components["schemas"]["Date"] | null;
            created_at: components["schemas"]["Date"];
            error: string;
            export_job_id: components["schemas"]["UUID"];
            from_host: string;
            id: components["schemas"]["UUID"];
            import_job_id: components["schemas"]["UUID"];
            initiator_id: components["schemas"]["UUID"];
            organization_id: components["schemas"]["UUID"];
            /** @enum {string} */
            status: "pending" | "running" | "succeeded" | "failed";
            to_host: string;
            volumes: components["schemas"]["WorkspaceMoveVolume"][];
            workspace_id: components["schemas"]["UUID"];
        };
        WorkspaceMoveVolume: {
            bytes: number;
            name: string;
            sha256: string;
        };
        WorkspaceProxiesResponse: {
            regions: components["schemas"]["WorkspaceProxy"][];
        };
        WorkspaceProxy: {
            created_at: components["schemas"]["Date"];
            deleted: boolean;
            derp_enabled: boolean;
            derp_only: boolean;
            display_name: string;
            healthy: boolean;
            icon_url: string;
            id: string;
            name: string;
            path_app_url: string;
            status?: components["schemas"]["WorkspaceProxyStatus"];
            updated_at: components["schemas"]["Date"];
            version: string;
            wildcard_hostname: string;
        };
        WorkspaceProxyStatus: {
            checked_at: components["schemas"]["Date"];
            report?: components["schemas"]["ProxyHealthReport"];
            /** @enum {string} */
            status: "ok" | "unhealthy" | "unreachable" | "unregistered";
        };
        WorkspaceQuota: {
            budget: components["schemas"]["Int"];
            credits_consumed: components["schemas"]["Int"];
        };
        WorkspaceResource: {
            agents?: components["schemas"]["WorkspaceAgent"][];
            created_at: components["schemas"]["Date"];
            daily_cost: components["schemas"]["Int"];
            hide: boolean;
            icon: string;
            id: components["schemas"]["UUID"];
            job_id: components["schemas"]["UUID"];
            metadata?: components["schemas"]["WorkspaceResourceMetadata"][];
            name: string;
            type: string;
            /** @enum {string} */
            workspace_transition: "start" | "stop" | "delete";
        };
        WorkspaceResourceMetadata: {
            key: string;
            sensitive: boolean;
            value: string;
        };
        WorkspaceSharingSettings: {
            shareable_workspace_owners: components["schemas"]["ShareableWorkspaceOwners"];
            sharing_disabled: boolean;
            sharing_globally_disabled: boolean;
        };
        WorkspacesResponse: {
            count: components["schemas"]["Int"];
            workspaces: components["schemas"]["Workspace"][];
        };
        WorkspaceUser: {
            avatar_url?: string;
            id: components["schemas"]["UUID"];
            name?: string;
            /** @enum {string} */
            role: "admin" | "use";
            username: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    "general.root": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "oauth2Discovery.authorizationServer": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OAuth2AuthorizationServerMetadata */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuth2AuthorizationServerMetadata"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "oauth2Discovery.protectedResource": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OAuth2ProtectedResourceMetadata */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuth2ProtectedResourceMetadata"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "enterprise.appearance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description AppearanceConfig */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppearanceConfig"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "enterprise.updateAppearance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateAppearanceConfig"];
            };
        };
        responses: {
            /** @description UpdateAppearanceConfig */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UpdateAppearanceConfig"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "applications.authRedirect": {
        parameters: {
            query: {
                /** @description a string at most 4096 character(s) long */
                redirect_uri: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            307: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "applications.host": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description AppHostResponse */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppHostResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "audit.auditLogs": {
        parameters: {
            query: {
                /** @description a string to be decoded into a number */
                limit: string;
                /** @description a non-negative number */
                offset?: string | "";
                q?: string | "";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description AuditLogResponse */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditLogResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "authorization.scopes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        external: string[];
                    };
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "session.authcheck": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AuthorizationRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: boolean;
                    };
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "general.buildInfo": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description BuildInfoResponse */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BuildInfoResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "audit.connectionLogs": {
        parameters: {
            query: {
                /** @description a string to be decoded into a number */
                limit: string;
                /** @description a non-negative number */
                offset?: string | "";
                q?: string | "";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description ConnectionLogResponse */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConnectionLogResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "deployment.cspReport": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    "csp-report": {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "debug.health": {
        parameters: {
            query?: {
                force?: "true" | "false" | "1" | "0" | "";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description HealthcheckReport */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthcheckReport"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "debug.settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description HealthSettings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthSettings"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "debug.updateSettings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateHealthSettings"];
            };
        };
        responses: {
            /** @description HealthSettings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthSettings"];
                };
            };
            /** @description Success */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "debug.ws": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Switching Protocols: the connection becomes a WebSocket. */
            101: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "deployment.config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description DeploymentConfig */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeploymentConfig"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "deployment.ssh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description SSHConfigResponse */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SSHConfigResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "deployment.stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description DeploymentStats */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeploymentStats"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "tailnet.derpMap": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Switching Protocols: the connection becomes a WebSocket. */
            101: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "enterprise.entitlements": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Entitlements */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Entitlements"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "deployment.experiments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string[];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "deployment.availableExperiments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string[];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "externalAuth.list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description ListUserExternalAuthResponse */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListUserExternalAuthResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "externalAuth.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a string at least 1 character(s) long */
                externalauth: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description ExternalAuth */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExternalAuth"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "externalAuth.unlink": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a string at least 1 character(s) long */
                externalauth: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description DeleteExternalAuthByIDResponse */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeleteExternalAuthByIDResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "externalAuth.callback": {
        parameters: {
            query?: {
                /** @description a string at most 4096 character(s) long */
                code?: string | "";
                /** @description a string at most 256 character(s) long */
                error?: string | "";
                /** @description a string at most 1024 character(s) long */
                error_description?: string | "";
                /** @description a string at most 2048 character(s) long */
                redirect?: string | "";
                /** @description a string at most 1024 character(s) long */
                state?: string | "";
            };
            header?: never;
            path: {
                /** @description a string at least 1 character(s) long */
                externalauth: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            307: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "externalAuth.device": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a string at least 1 character(s) long */
                externalauth: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description ExternalAuthDevice */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExternalAuthDevice"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "externalAuth.deviceExchange": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a string at least 1 character(s) long */
                externalauth: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ExternalAuthDeviceExchange"];
            };
        };
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "files.upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-tar": string;
                "application/x-zip-compressed": string;
                "application/zip": string;
            };
        };
        responses: {
            /** @description UploadResponse */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UploadResponse"];
                };
            };
            /** @description UploadResponse */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UploadResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "files.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                fileID: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/x-tar": string;
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "groups.list": {
        parameters: {
            query?: {
                group_ids?: string[] | "";
                has_member?: string | "";
                organization?: string | "";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Group"][];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "groups.get": {
        parameters: {
            query?: {
                exclude_members?: "true" | "false" | "1" | "0" | "";
            };
            header?: never;
            path: {
                group: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Group */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Group"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "groups.delete": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                group: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Group */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Group"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "groups.update": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                group: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PatchGroupRequest"];
            };
        };
        responses: {
            /** @description Group */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Group"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "groups.getAiBudget": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                group: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description GroupAIBudget */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GroupAIBudget"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "groups.setAiBudget": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                group: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PutGroupAIBudgetRequest"];
            };
        };
        responses: {
            /** @description GroupAIBudget */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GroupAIBudget"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "groups.deleteAiBudget": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                group: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "groups.listMembers": {
        parameters: {
            query?: {
                /** @description a Universally Unique Identifier */
                after_id?: string | "";
                /** @description a non-negative number */
                limit?: string | "";
                /** @description a non-negative number */
                offset?: string | "";
                q?: string | "";
            };
            header?: never;
            path: {
                group: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description GroupMembersResponse */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GroupMembersResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "agentBinaries.initScript": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Architecture (amd64, arm64, armv7) */
                arch: string;
                /** @description Operating system (linux, darwin, windows) */
                os: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain; charset=utf-8": string;
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "insights.daus": {
        parameters: {
            query?: {
                /** @description a number between -14 and 14 */
                tz_offset?: string | "";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description DAUsResponse */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DAUsResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "insights.templates": {
        parameters: {
            query: {
                /** @description a string at most 64 character(s) long */
                end_time: string;
                interval: "day" | "week";
                /** @description a string at most 64 character(s) long */
                start_time: string;
                /** @description an array of at most 100 item(s) */
                template_ids?: string[] | "";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description TemplateInsightsResponse */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TemplateInsightsResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "insights.userActivity": {
        parameters: {
            query: {
                /** @description a string at most 64 character(s) long */
                end_time: string;
                /** @description a string at most 64 character(s) long */
                start_time: string;
                /** @description an array of at most 100 item(s) */
                template_ids?: string[] | "";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description UserActivityInsightsResponse */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserActivityInsightsResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "insights.userLatency": {
        parameters: {
            query: {
                /** @description a string at most 64 character(s) long */
                end_time: string;
                /** @description a string at most 64 character(s) long */
                start_time: string;
                /** @description an array of at most 100 item(s) */
                template_ids?: string[] | "";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description UserLatencyInsightsResponse */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserLatencyInsightsResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "insights.userStatusCounts": {
        parameters: {
            query?: {
                /** @description an integer */
                interval?: string | "";
                /** @description a string at most 64 character(s) long */
                timezone?: string | "";
                /** @description a number between -14 and 14 */
                tz_offset?: string | "";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description GetUserStatusCountsResponse */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GetUserStatusCountsResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "enterprise.licenses": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["License"][];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "enterprise.addLicense": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AddLicenseRequest"];
            };
        };
        responses: {
            /** @description License */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["License"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "enterprise.deleteLicense": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a string to be decoded into a number */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "enterprise.refreshEntitlements": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "notifications.sendCustom": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CustomNotificationRequest"];
            };
        };
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "notifications.dispatchMethods": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description NotificationMethodsResponse */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationMethodsResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "inbox.list": {
        parameters: {
            query?: {
                read_status?: "all" | "read" | "unread" | "";
                /** @description a Universally Unique Identifier */
                starting_before?: string | "";
                targets?: string[] | "";
                templates?: string[] | "";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description ListInboxNotificationsResponse */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListInboxNotificationsResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "inbox.setReadStatus": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateInboxNotificationReadStatusRequest"];
            };
        };
        responses: {
            /** @description UpdateInboxNotificationReadStatusResponse */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UpdateInboxNotificationReadStatusResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "inbox.markAllRead": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "inbox.watch": {
        parameters: {
            query?: {
                format?: "markdown" | "plaintext" | "";
                read_status?: "all" | "read" | "unread" | "";
                targets?: string[] | "";
                templates?: string[] | "";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Switching Protocols: the connection becomes a WebSocket. */
            101: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "notifications.getSettings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description NotificationsSettings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationsSettings"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "notifications.updateSettings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateNotificationsSettings"];
            };
        };
        responses: {
            /** @description NotificationsSettings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationsSettings"];
                };
            };
            /** @description Success */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "notifications.updateTemplateMethod": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                notification_template: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateNotificationTemplateMethod"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Success */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "notifications.customTemplates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationTemplate"][];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "notifications.systemTemplates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationTemplate"][];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "notifications.sendTest": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "oauth2Apps.list": {
        parameters: {
            query?: {
                /** @description a Universally Unique Identifier */
                user_id?: string | "";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuth2ProviderApp"][];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "oauth2Apps.create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PostOAuth2ProviderAppRequest"];
            };
        };
        responses: {
            /** @description OAuth2ProviderApp */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuth2ProviderApp"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "oauth2Apps.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                app: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OAuth2ProviderApp */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuth2ProviderApp"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "oauth2Apps.update": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                app: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PostOAuth2ProviderAppRequest"];
            };
        };
        responses: {
            /** @description OAuth2ProviderApp */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuth2ProviderApp"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "oauth2Apps.delete": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                app: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "oauth2Apps.listSecrets": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                app: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuth2ProviderAppSecret"][];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "oauth2Apps.createSecret": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                app: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OAuth2ProviderAppSecretFull */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuth2ProviderAppSecretFull"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "oauth2Apps.deleteSecret": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                app: string;
                /** @description a Universally Unique Identifier */
                secretID: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "oauth2Apps.getSettings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OAuth2ProviderSettings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuth2ProviderSettings"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "oauth2Apps.updateSettings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OAuth2ProviderSettings"];
            };
        };
        responses: {
            /** @description OAuth2ProviderSettings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuth2ProviderSettings"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "oauth2.authorizePage": {
        parameters: {
            query?: {
                client_id?: string;
                code_challenge?: string;
                code_challenge_method?: string;
                redirect_uri?: string;
                response_type?: string;
                scope?: string;
                state?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html; charset=utf-8": string;
                };
            };
            /** @description Success */
            302: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html; charset=utf-8": string;
                };
            };
            /** @description Success */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html; charset=utf-8": string;
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "oauth2.authorize": {
        parameters: {
            query?: {
                client_id?: string;
                code_challenge?: string;
                code_challenge_method?: string;
                redirect_uri?: string;
                response_type?: string;
                scope?: string;
                state?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": {
                    csrf_token?: string;
                    decision?: string;
                    scope_choice?: string;
                } & {
                    [key: string]: string;
                };
            };
        };
        responses: {
            /** @description Success */
            302: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "oauth2.getClient": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                client_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OAuth2ClientConfiguration */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuth2ClientConfiguration"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["OAuth2Error"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "oauth2.updateClient": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                client_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    client_id?: string | null;
                    client_name?: string | null;
                    /**
                     * maxLength(2048)
                     * @description a string at most 2048 character(s) long
                     */
                    client_uri?: string | null;
                    contacts?: string[] | null;
                    grant_types?: string[] | null;
                    jwks?: {
                        [key: string]: unknown;
                    } | null;
                    /**
                     * maxLength(2048)
                     * @description a string at most 2048 character(s) long
                     */
                    jwks_uri?: string | null;
                    /**
                     * maxLength(2048)
                     * @description a string at most 2048 character(s) long
                     */
                    logo_uri?: string | null;
                    /**
                     * maxLength(2048)
                     * @description a string at most 2048 character(s) long
                     */
                    policy_uri?: string | null;
                    redirect_uris?: string[] | null;
                    response_types?: string[] | null;
                    scope?: string | null;
                    software_id?: string | null;
                    software_statement?: string | null;
                    software_version?: string | null;
                    token_endpoint_auth_method?: string | null;
                    /**
                     * maxLength(2048)
                     * @description a string at most 2048 character(s) long
                     */
                    tos_uri?: string | null;
                };
            };
        };
        responses: {
            /** @description OAuth2ClientConfiguration */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuth2ClientConfiguration"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["OAuth2Error"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["OAuth2Error"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "oauth2.deleteClient": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                client_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["OAuth2Error"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "oauth2.register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OAuth2ClientRegistrationRequest"];
            };
        };
        responses: {
            /** @description OAuth2ClientRegistrationResponse */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuth2ClientRegistrationResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["OAuth2Error"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "oauth2.revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": {
                    client_id?: string;
                    client_secret?: string;
                    token?: string;
                    token_type_hint?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["OAuth2Error"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["OAuth2Error"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "oauth2.signIn": {
        parameters: {
            query?: {
                client_id?: string;
                code_challenge?: string;
                code_challenge_method?: string;
                redirect_uri?: string;
                response_type?: string;
                scope?: string;
                state?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": {
                    email?: string;
                    password?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            303: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html; charset=utf-8": string;
                };
            };
            /** @description Success */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html; charset=utf-8": string;
                };
            };
            /** @description Success */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html; charset=utf-8": string;
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "oauth2.token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": {
                    client_id?: string;
                    client_secret?: string;
                    code?: string;
                    code_verifier?: string;
                    grant_type?: string;
                    redirect_uri?: string;
                    refresh_token?: string;
                    resource?: string;
                    scope?: string;
                };
            };
        };
        responses: {
            /** @description OAuth2TokenResponse */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuth2TokenResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["OAuth2Error"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["OAuth2Error"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "oauth2.revokeApp": {
        parameters: {
            query: {
                client_id: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "organizations.list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Organization"][];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "organizations.create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateOrganizationRequest"];
            };
        };
        responses: {
            /** @description Organization */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Organization"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "organizations.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organization: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Organization */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Organization"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "organizations.delete": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organization: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "organizations.update": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organization: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateOrganizationRequest"];
            };
        };
        responses: {
            /** @description Organization */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Organization"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "groups.listByOrganization": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organization: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Group"][];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "groups.create": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organization: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateGroupRequest"];
            };
        };
        responses: {
            /** @description Group */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Group"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "groups.getByName": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                groupName: string;
                organization: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Group */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Group"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "groups.listMembersByName": {
        parameters: {
            query?: {
                /** @description a Universally Unique Identifier */
                after_id?: string | "";
                /** @description a non-negative number */
                limit?: string | "";
                /** @description a non-negative number */
                offset?: string | "";
                q?: string | "";
            };
            header?: never;
            path: {
                groupName: string;
                organization: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description GroupMembersResponse */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GroupMembersResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "organizations.listMembers": {
        parameters: {
            query?: {
                /** @description a non-negative number */
                limit?: string | "";
                /** @description a non-negative number */
                offset?: string | "";
            };
            header?: never;
            path: {
                organization: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrganizationMemberWithUserData"][];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "organizations.getMember": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organization: string;
                user: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OrganizationMemberWithUserData */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrganizationMemberWithUserData"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "organizations.addMember": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organization: string;
                user: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OrganizationMemberWithUserData */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrganizationMemberWithUserData"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "organizations.removeMember": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organization: string;
                user: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "organizations.updateMemberRoles": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organization: string;
                user: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateRoles"];
            };
        };
        responses: {
            /** @description OrganizationMemberWithUserData */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrganizationMemberWithUserData"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "groups.workspaceQuotaByOrganization": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organization: string;
                user: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description WorkspaceQuota */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceQuota"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "workspaces.create": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organization: string;
                user: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateWorkspaceRequest"];
            };
        };
        responses: {
            /** @description Workspace */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workspace"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "workspaces.availableUsers": {
        parameters: {
            query?: {
                /** @description a non-negative number */
                limit?: string | "";
                /** @description a non-negative number */
                offset?: string | "";
                /** @description a string at most 1024 character(s) long */
                q?: string | "";
            };
            header?: never;
            path: {
                organization: string;
                user: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MinimalUser"][];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "organizations.assignableRoles": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organization: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AssignableRoles"][];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "organizations.updateRole": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organization: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CustomRoleRequest"];
            };
        };
        responses: {
            /** @description Role */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Role"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "organizations.createRole": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organization: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CustomRoleRequest"];
            };
        };
        responses: {
            /** @description Role */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Role"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "organizations.deleteRole": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organization: string;
                roleName: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "groups.listPaginated": {
        parameters: {
            query?: {
                /** @description a Universally Unique Identifier */
                after_id?: string | "";
                /** @description a non-negative number */
                limit?: string | "";
                /** @description a non-negative number */
                offset?: string | "";
                q?: string | "";
            };
            header?: never;
            path: {
                organization: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description PaginatedGroupsResponse */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedGroupsResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "organizations.paginatedMembers": {
        parameters: {
            query?: {
                /** @description a Universally Unique Identifier */
                after_id?: string | "";
                /** @description a non-negative number */
                limit?: string | "";
                /** @description a non-negative number */
                offset?: string | "";
                q?: string | "";
            };
            header?: never;
            path: {
                organization: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description PaginatedMembersResponse */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedMembersResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "provisionerJobs.listDaemons": {
        parameters: {
            query?: {
                ids?: string[] | "";
                /** @description a non-negative number */
                limit?: string | "";
                status?: string[] | "";
                tags?: string | "";
            };
            header?: never;
            path: {
                organization: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProvisionerDaemon"][];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "provisionerDaemonServe.serve": {
        parameters: {
            query?: {
                /** @description a string at most 64 character(s) long */
                host?: string | "";
                /** @description a string at most 64 character(s) long */
                id?: string | "";
                /** @description a string at most 64 character(s) long */
                name?: string | "";
                /** @description an array of at most 64 item(s) */
                provisioner?: string[] | "";
                /** @description an array of at most 64 item(s) */
                provisioners?: string[] | "";
                /** @description an array of at most 64 item(s) */
                tag?: string[] | "";
                /** @description an array of at most 64 item(s) */
                tags?: string[] | "";
                /** @description a string at most 32 character(s) long */
                version?: string | "";
            };
            header?: never;
            path: {
                /** @description a string at most 256 character(s) long */
                organization: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Switching Protocols: the connection becomes a WebSocket. */
            101: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "provisionerJobs.listHosts": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organization: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProvisionerHost"][];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "provisionerJobs.patchHost": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                host: string;
                organization: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PatchProvisionerHostRequest"];
            };
        };
        responses: {
            /** @description ProvisionerHost */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProvisionerHost"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "provisionerJobs.list": {
        parameters: {
            query?: {
                ids?: string[] | "";
                initiator?: string | "";
                /** @description a non-negative number */
                limit?: string | "";
                status?: string[] | "";
                tags?: string | "";
            };
            header?: never;
            path: {
                organization: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProvisionerJob"][];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "provisionerJobs.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                job: string;
                organization: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description ProvisionerJob */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProvisionerJob"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "provisionerKeys.list": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a string at most 256 character(s) long */
                organization: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProvisionerKey"][];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "provisionerKeys.create": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a string at most 256 character(s) long */
                organization: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateProvisionerKeyRequest"];
            };
        };
        responses: {
            /** @description CreateProvisionerKeyResponse */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreateProvisionerKeyResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "provisionerKeys.delete": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a string at most 256 character(s) long */
                organization: string;
                /** @description a string at most 256 character(s) long */
                provisionerkey: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "provisionerKeys.listDaemons": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a string at most 256 character(s) long */
                organization: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProvisionerKeyDaemons"][];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "idpSync.organizationAvailableFields": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organization: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string[];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "idpSync.organizationFieldValues": {
        parameters: {
            query?: {
                /** @description a string at most 256 character(s) long */
                claimField?: string | "";
            };
            header?: never;
            path: {
                organization: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string[];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "idpSync.getGroupSync": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organization: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description GroupSyncSettings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GroupSyncSettings"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "idpSync.patchGroupSync": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organization: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GroupSyncSettingsRequest"];
            };
        };
        responses: {
            /** @description GroupSyncSettings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GroupSyncSettings"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "idpSync.patchGroupSyncConfig": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organization: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PatchGroupIDPSyncConfigRequest"];
            };
        };
        responses: {
            /** @description GroupSyncSettings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GroupSyncSettings"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "idpSync.patchGroupSyncMapping": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organization: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PatchGroupIDPSyncMappingRequest"];
            };
        };
        responses: {
            /** @description GroupSyncSettings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GroupSyncSettings"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "idpSync.getRoleSync": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organization: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description RoleSyncSettings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RoleSyncSettings"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "idpSync.patchRoleSync": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organization: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RoleSyncSettingsRequest"];
            };
        };
        responses: {
            /** @description RoleSyncSettings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RoleSyncSettings"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "idpSync.patchRoleSyncConfig": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organization: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PatchRoleIDPSyncConfigRequest"];
            };
        };
        responses: {
            /** @description RoleSyncSettings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RoleSyncSettings"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "idpSync.patchRoleSyncMapping": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organization: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PatchRoleIDPSyncMappingRequest"];
            };
        };
        responses: {
            /** @description RoleSyncSettings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RoleSyncSettings"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "organizations.getWorkspaceSharing": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organization: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description WorkspaceSharingSettings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceSharingSettings"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "organizations.updateWorkspaceSharing": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organization: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateWorkspaceSharingSettingsRequest"];
            };
        };
        responses: {
            /** @description WorkspaceSharingSettings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceSharingSettings"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "templates.listByOrganization": {
        parameters: {
            query?: {
                q?: string | "";
            };
            header?: never;
            path: {
                organization: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Template"][];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "templates.create": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organization: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateTemplateRequest"];
            };
        };
        responses: {
            /** @description Template */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Template"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "templates.getByName": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organization: string;
                templatename: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Template */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Template"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "templateVersions.getByOrganizationAndName": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organization: string;
                /** @description a string at most 256 character(s) long */
                templatename: string;
                /** @description a string at most 256 character(s) long */
                templateversionname: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description TemplateVersion */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TemplateVersion"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "templateVersions.previous": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organization: string;
                /** @description a string at most 256 character(s) long */
                templatename: string;
                /** @description a string at most 256 character(s) long */
                templateversionname: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description TemplateVersion */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TemplateVersion"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "templates.examplesByOrganization": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organization: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TemplateExample"][];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "templateVersions.create": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organization: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateTemplateVersionRequest"];
            };
        };
        responses: {
            /** @description TemplateVersion */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TemplateVersion"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "workspaceMoveLink.link": {
        parameters: {
            query: {
                side: "export" | "import";
            };
            header?: never;
            path: {
                move: string;
                organization: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Switching Protocols: the connection becomes a WebSocket. */
            101: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description BadGateway */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadGateway"];
                };
            };
        };
    };
    "templates.getPrebuildsSettings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description PrebuildsSettings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PrebuildsSettings"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "templates.updatePrebuildsSettings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdatePrebuildsSettings"];
            };
        };
        responses: {
            /** @description PrebuildsSettings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PrebuildsSettings"];
                };
            };
            /** @description Success */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "provisionerDaemonServe.key": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a string at most 256 character(s) long */
                provisionerkey: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description ProvisionerKey */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProvisionerKey"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "workspaceProxies.regions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description RegionsResponse */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RegionsResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "enterprise.replicas": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Replica"][];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "idpSync.availableFields": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string[];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "idpSync.fieldValues": {
        parameters: {
            query?: {
                /** @description a string at most 256 character(s) long */
                claimField?: string | "";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string[];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "idpSync.getOrganizationSync": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OrganizationSyncSettings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrganizationSyncSettings"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "idpSync.patchOrganizationSync": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OrganizationSyncSettingsRequest"];
            };
        };
        responses: {
            /** @description OrganizationSyncSettings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrganizationSyncSettings"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "idpSync.patchOrganizationSyncConfig": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PatchOrganizationIDPSyncConfigRequest"];
            };
        };
        responses: {
            /** @description OrganizationSyncSettings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrganizationSyncSettings"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "idpSync.patchOrganizationSyncMapping": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PatchOrganizationIDPSyncMappingRequest"];
            };
        };
        responses: {
            /** @description OrganizationSyncSettings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrganizationSyncSettings"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "tailnet.coordinate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Switching Protocols: the connection becomes a WebSocket. */
            101: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "tasks.list": {
        parameters: {
            query?: {
                /** @description a non-negative number */
                limit?: string | "";
                /** @description a non-negative number */
                offset?: string | "";
                /** @description a string at most 4096 character(s) long */
                q?: string | "";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description TasksListResponse */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TasksListResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "tasks.create": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateTaskRequest"];
            };
        };
        responses: {
            /** @description Task */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Task"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "tasks.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a string at most 256 character(s) long */
                task: string;
                user: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Task */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Task"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "tasks.delete": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a string at most 256 character(s) long */
                task: string;
                user: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "tasks.updateInput": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a string at most 256 character(s) long */
                task: string;
                user: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateTaskInputRequest"];
            };
        };
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "tasks.logs": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a string at most 256 character(s) long */
                task: string;
                user: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description TaskLogsResponse */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskLogsResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "tasks.pause": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a string at most 256 character(s) long */
                task: string;
                user: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description PauseTaskResponse */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PauseTaskResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "tasks.resume": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a string at most 256 character(s) long */
                task: string;
                user: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description PauseTaskResponse */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PauseTaskResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "tasks.send": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a string at most 256 character(s) long */
                task: string;
                user: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TaskSendRequest"];
            };
        };
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "templates.list": {
        parameters: {
            query?: {
                q?: string | "";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Template"][];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "templates.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                template: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Template */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Template"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "templates.delete": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                template: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "templates.update": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                template: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateTemplateMeta"];
            };
        };
        responses: {
            /** @description Template */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Template"];
                };
            };
            /** @description Success */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "templates.getAcl": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                template: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description TemplateACL */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TemplateACL"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "templates.updateAcl": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                template: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateTemplateACL"];
            };
        };
        responses: {
            /** @description Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "templates.aclAvailable": {
        parameters: {
            query?: {
                /** @description a non-negative number */
                limit?: string | "";
                q?: string | "";
            };
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                template: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description ACLAvailable */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ACLAvailable"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "insights.templateDaus": {
        parameters: {
            query?: {
                /** @description a number between -14 and 14 */
                tz_offset?: string | "";
            };
            header?: never;
            path: {
                template: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description DAUsResponse */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DAUsResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "templates.invalidatePresets": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                template: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description InvalidatePresetsResponse */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvalidatePresetsResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "templateVersions.listByTemplate": {
        parameters: {
            query?: {
                /** @description a Universally Unique Identifier */
                after_id?: string | "";
                include_archived?: "true" | "false" | "1" | "0" | "";
                /** @description a non-negative number */
                limit?: string | "";
                /** @description a non-negative number */
                offset?: string | "";
            };
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                template: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TemplateVersion"][];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "templateVersions.promote": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                template: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateActiveTemplateVersion"];
            };
        };
        responses: {
            /** @description Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "templateVersions.getByTemplateAndName": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                template: string;
                /** @description a string at most 256 character(s) long */
                templateversionname: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description TemplateVersion */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TemplateVersion"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "templateVersions.archiveUnused": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                template: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ArchiveTemplateVersionsRequest"];
            };
        };
        responses: {
            /** @description ArchiveTemplateVersionsResponse */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ArchiveTemplateVersionsResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "templates.examples": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TemplateExample"][];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "templateVersions.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                templateversion: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description TemplateVersion */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TemplateVersion"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "templateVersions.update": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                templateversion: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PatchTemplateVersionRequest"];
            };
        };
        responses: {
            /** @description TemplateVersion */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TemplateVersion"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "templateVersions.archive": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                templateversion: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "templateVersions.cancel": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                templateversion: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "templateVersions.createDryRun": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                templateversion: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateTemplateVersionDryRunRequest"];
            };
        };
        responses: {
            /** @description ProvisionerJob */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProvisionerJob"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "templateVersions.getDryRun": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                jobID: string;
                /** @description a Universally Unique Identifier */
                templateversion: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description ProvisionerJob */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProvisionerJob"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "templateVersions.cancelDryRun": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                jobID: string;
                /** @description a Universally Unique Identifier */
                templateversion: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "templateVersions.dryRunLogs": {
        parameters: {
            query?: {
                /** @description an integer */
                after?: string | "";
                /** @description an integer */
                before?: string | "";
                follow?: "true" | "false" | "1" | "0" | "";
            };
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                jobID: string;
                /** @description a Universally Unique Identifier */
                templateversion: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Switching Protocols: the connection becomes a WebSocket. */
            101: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProvisionerJobLog"][];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "templateVersions.dryRunMatchedProvisioners": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                jobID: string;
                /** @description a Universally Unique Identifier */
                templateversion: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description MatchedProvisioners */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MatchedProvisioners"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "templateVersions.dryRunResources": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                jobID: string;
                /** @description a Universally Unique Identifier */
                templateversion: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceResource"][];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "templateVersions.dynamicParameters": {
        parameters: {
            query?: {
                user_id?: ("me" | string) | "";
            };
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                templateversion: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Switching Protocols: the connection becomes a WebSocket. */
            101: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "templateVersions.evaluateDynamicParameters": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                templateversion: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DynamicParametersRequest"];
            };
        };
        responses: {
            /** @description DynamicParametersResponse */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DynamicParametersResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "templateVersions.externalAuth": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                templateversion: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TemplateVersionExternalAuth"][];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "templateVersions.logs": {
        parameters: {
            query?: {
                /** @description an integer */
                after?: string | "";
                /** @description an integer */
                before?: string | "";
                follow?: "true" | "false" | "1" | "0" | "";
            };
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                templateversion: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Switching Protocols: the connection becomes a WebSocket. */
            101: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProvisionerJobLog"][];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "templateVersions.removedParameters": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                templateversion: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown[];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "templateVersions.presets": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                templateversion: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Preset"][];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "templateVersions.resources": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                templateversion: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceResource"][];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "templateVersions.richParameters": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                templateversion: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TemplateVersionParameter"][];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "templateVersions.removedSchema": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                templateversion: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown[];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "templateVersions.unarchive": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                templateversion: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "templateVersions.variables": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                templateversion: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TemplateVersionVariable"][];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "general.updateCheck": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description UpdateCheckResponse */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UpdateCheckResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "users.list": {
        parameters: {
            query?: {
                /** @description a Universally Unique Identifier */
                after_id?: string | "";
                /** @description a non-negative number */
                limit?: string | "";
                /** @description a non-negative number */
                offset?: string | "";
                q?: string | "";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description GetUsersResponse */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GetUsersResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "users.create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateUserRequestWithOrgs"];
            };
        };
        responses: {
            /** @description User */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "users.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description User */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "users.delete": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "users.getAppearance": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description UserAppearanceSettings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserAppearanceSettings"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "users.updateAppearance": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateUserAppearanceSettingsRequest"];
            };
        };
        responses: {
            /** @description UserAppearanceSettings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserAppearanceSettings"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "users.autofillParameters": {
        parameters: {
            query: {
                /** @description a Universally Unique Identifier */
                template_id: string;
            };
            header?: never;
            path: {
                user: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        name: string;
                        value: string;
                    }[];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "session.convertLogin": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    password: string;
                    to_type: string;
                };
            };
        };
        responses: {
            /** @description OAuthConversionResponse */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthConversionResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "users.getGitSshKey": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description GitSSHKey */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GitSSHKey"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "users.regenerateGitSshKey": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description GitSSHKey */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GitSSHKey"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "users.createSessionKey": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        key: string;
                    };
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "users.getKey": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                keyid: string;
                user: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description APIKey */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["APIKey"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "users.deleteKey": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                keyid: string;
                user: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "users.expireKey": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                keyid: string;
                user: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "users.listTokens": {
        parameters: {
            query?: {
                include_all?: "true" | "false" | "1" | "0" | "";
                include_expired?: "true" | "false" | "1" | "0" | "";
            };
            header?: never;
            path: {
                user: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["APIKeyWithOwner"][];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "users.createToken": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateTokenRequest"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        key: string;
                    };
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "users.getTokenByName": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                keyname: string;
                user: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description APIKey */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["APIKey"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "users.deleteTokenByName": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                keyname: string;
                user: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "users.tokenConfig": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        max_token_lifetime: number;
                    };
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "users.loginType": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description UserLoginType */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserLoginType"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "notifications.getPreferences": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationPreference"][];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "notifications.updatePreferences": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateUserNotificationPreferences"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationPreference"][];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "users.organizations": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Organization"][];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "users.organizationByName": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organizationname: string;
                user: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Organization */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Organization"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "users.updatePassword": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateUserPasswordRequest"];
            };
        };
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "users.getPreferences": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description UserPreferenceSettings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserPreferenceSettings"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "users.updatePreferences": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateUserPreferenceSettingsRequest"];
            };
        };
        responses: {
            /** @description UserPreferenceSettings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserPreferenceSettings"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "users.updateProfile": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateUserProfileRequest"];
            };
        };
        responses: {
            /** @description User */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "users.getQuietHours": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserQuietHoursScheduleResponse"][];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "users.updateQuietHours": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    schedule: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserQuietHoursScheduleResponse"][];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "users.roles": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description UserRoles */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserRoles"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "users.updateRoles": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateRoles"];
            };
        };
        responses: {
            /** @description User */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "users.activate": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description User */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "users.suspend": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description User */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "workspaces.getByOwnerAndName": {
        parameters: {
            query?: {
                include_deleted?: "true" | "false" | "1" | "0" | "";
            };
            header?: never;
            path: {
                user: string;
                /** @description a string at most 256 character(s) long */
                workspacename: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Workspace */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workspace"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "workspaces.buildByNumber": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a string to be decoded into a number */
                buildnumber: string;
                user: string;
                /** @description a string at most 256 character(s) long */
                workspacename: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description WorkspaceBuild */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceBuild"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "workspaces.createForUser": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateWorkspaceRequest"];
            };
        };
        responses: {
            /** @description Workspace */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workspace"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "authorization.authMethods": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description AuthMethods */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuthMethods"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "authorization.getFirstUser": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "authorization.createFirstUser": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateFirstUserRequest"];
            };
        };
        responses: {
            /** @description CreateFirstUserResponse */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreateFirstUserResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "authorization.login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LoginWithPasswordRequest"];
            };
        };
        responses: {
            /** @description LoginWithPasswordResponse */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LoginWithPasswordResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "session.logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "signin.githubCallback": {
        parameters: {
            query?: {
                code?: string | "";
                error?: string | "";
                error_description?: string | "";
                iss?: string | "";
                oidc_merge_state?: string | "";
                redirect?: string | "";
                state?: string | "";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OAuth2DeviceFlowCallbackResponse */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuth2DeviceFlowCallbackResponse"];
                };
            };
            /** @description Success */
            307: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "signin.githubDevice": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description ExternalAuthDevice */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExternalAuthDevice"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "signinSession.oidcClaims": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OIDCClaimsResponse */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OIDCClaimsResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "signin.oidcCallback": {
        parameters: {
            query?: {
                code?: string | "";
                error?: string | "";
                error_description?: string | "";
                iss?: string | "";
                oidc_merge_state?: string | "";
                redirect?: string | "";
                state?: string | "";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            307: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "authorization.changePasswordWithOneTimePasscode": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * maxLength(320)
                     * @description a string matching the pattern ^[^\s@]+@[^\s@]+\.[^\s@]+$
                     */
                    email: string;
                    /**
                     * minLength(1)
                     * @description a string at least 1 character(s) long
                     */
                    one_time_passcode: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "authorization.requestOneTimePasscode": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * maxLength(320)
                     * @description a string matching the pattern ^[^\s@]+@[^\s@]+\.[^\s@]+$
                     */
                    email: string;
                };
            };
        };
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "users.assignableRoles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AssignableRoles"][];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "session.validatePassword": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    password: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        details: string;
                        valid: boolean;
                    };
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "groups.workspaceQuota": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description WorkspaceQuota */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceQuota"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "agents.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                workspaceagent: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description WorkspaceAgent */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceAgent"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "agents.connection": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                workspaceagent: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description AgentConnectionInfo */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentConnectionInfo"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "agents.containers": {
        parameters: {
            query?: {
                label?: string | string[];
            };
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                workspaceagent: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description WorkspaceAgentListContainersResponse */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceAgentListContainersResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description BadGateway */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadGateway"];
                };
            };
            /** @description GatewayTimeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayTimeout"];
                };
            };
        };
    };
    "agents.deleteDevcontainer": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a string at most 128 character(s) long */
                devcontainer: string;
                /** @description a Universally Unique Identifier */
                workspaceagent: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description BadGateway */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadGateway"];
                };
            };
            /** @description GatewayTimeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayTimeout"];
                };
            };
        };
    };
    "agents.recreateDevcontainer": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a string at most 128 character(s) long */
                devcontainer: string;
                /** @description a Universally Unique Identifier */
                workspaceagent: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description BadGateway */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadGateway"];
                };
            };
            /** @description GatewayTimeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayTimeout"];
                };
            };
        };
    };
    "agents.watchContainers": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                workspaceagent: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Switching Protocols: the connection becomes a WebSocket. */
            101: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description BadGateway */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadGateway"];
                };
            };
        };
    };
    "tailnet.agentCoordinate": {
        parameters: {
            query?: {
                /** @description a string at most 64 character(s) long */
                version?: string;
            };
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                workspaceagent: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Switching Protocols: the connection becomes a WebSocket. */
            101: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "agents.listeningPorts": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                workspaceagent: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description WorkspaceAgentListeningPortsResponse */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceAgentListeningPortsResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description BadGateway */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadGateway"];
                };
            };
            /** @description GatewayTimeout */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayTimeout"];
                };
            };
        };
    };
    "agentLogs.logs": {
        parameters: {
            query?: {
                /** @description an integer */
                after?: string | "";
                /** @description an integer */
                before?: string | "";
                follow?: "true" | "false" | "1" | "0" | "";
                format?: "json" | "";
                no_compression?: "true" | "false" | "1" | "0" | "";
            };
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                workspaceagent: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Switching Protocols: the connection becomes a WebSocket. */
            101: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceAgentLog"][];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "agentStreams.pty": {
        parameters: {
            query?: {
                /** @description a string at most 32 character(s) long */
                backend_type?: string | "";
                /** @description a string at most 4096 character(s) long */
                command?: string | "";
                /** @description a string at most 256 character(s) long */
                container?: string | "";
                /** @description a string at most 256 character(s) long */
                container_user?: string | "";
                /** @description a number between 1 and 1000 */
                height?: string | "";
                /** @description a Universally Unique Identifier */
                reconnect?: string | "";
                /** @description a number between 1 and 1000 */
                width?: string | "";
            };
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                workspaceagent: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Switching Protocols: the connection becomes a WebSocket. */
            101: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description BadGateway */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadGateway"];
                };
            };
        };
    };
    "agentStreams.ssh": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                workspaceagent: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Switching Protocols: the connection becomes a WebSocket. */
            101: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description BadGateway */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadGateway"];
                };
            };
        };
    };
    "agentLogs.startupLogs": {
        parameters: {
            query?: {
                /** @description an integer */
                after?: string | "";
                /** @description an integer */
                before?: string | "";
                follow?: "true" | "false" | "1" | "0" | "";
                format?: "json" | "";
                no_compression?: "true" | "false" | "1" | "0" | "";
            };
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                workspaceagent: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Switching Protocols: the connection becomes a WebSocket. */
            101: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceAgentLog"][];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "agentStreams.tunnel": {
        parameters: {
            query: {
                /** @description a string to be decoded into a number */
                port: string;
            };
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                workspaceagent: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Switching Protocols: the connection becomes a WebSocket. */
            101: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description BadGateway */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadGateway"];
                };
            };
        };
    };
    "agentMetadata.watchMetadata": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                workspaceagent: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A stream of server-sent events (text/event-stream). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "agentMetadata.watchMetadataWs": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                workspaceagent: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Switching Protocols: the connection becomes a WebSocket. */
            101: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "agentIdentity.aws": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AWSInstanceIdentityToken"];
            };
        };
        responses: {
            /** @description AuthenticateResponse */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuthenticateResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "agentIdentity.azure": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AzureInstanceIdentityToken"];
            };
        };
        responses: {
            /** @description AuthenticateResponse */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuthenticateResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "agentIdentity.google": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GoogleInstanceIdentityToken"];
            };
        };
        responses: {
            /** @description AuthenticateResponse */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuthenticateResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "agentReports.appStatus": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    app_slug: string;
                    /**
                     * maxLength(2048)
                     * @description a string at most 2048 character(s) long
                     */
                    icon?: string;
                    message?: string;
                    needs_user_attention?: boolean;
                    /** @enum {string} */
                    state: "working" | "idle" | "complete" | "failure";
                    /**
                     * maxLength(2048)
                     * @description a string at most 2048 character(s) long
                     */
                    uri?: string;
                };
            };
        };
        responses: {
            /** @description Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "agentReports.connection": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReportConnectionRequest"];
            };
        };
        responses: {
            /** @description Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "tailnetAgent.coordinate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Switching Protocols: the connection becomes a WebSocket. */
            101: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "agentExternalAuth.externalAuth": {
        parameters: {
            query?: {
                /** @description a string at most 256 character(s) long */
                id?: string | "";
                listen?: string;
                /** @description a string at most 2048 character(s) long */
                match?: string | "";
                /** @description a string at most 2048 character(s) long */
                url?: string | "";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description ExternalAuthResponse */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExternalAuthResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "agentExternalAuth.gitAuth": {
        parameters: {
            query?: {
                /** @description a string at most 256 character(s) long */
                id?: string | "";
                listen?: string;
                /** @description a string at most 2048 character(s) long */
                match?: string | "";
                /** @description a string at most 2048 character(s) long */
                url?: string | "";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description ExternalAuthResponse */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExternalAuthResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "agentMe.gitSshKey": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description AgentGitSSHKey */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentGitSSHKey"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "agentReports.logSource": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * minLength(1)
                     * @description a string at least 1 character(s) long
                     */
                    display_name: string;
                    /**
                     * maxLength(2048)
                     * @description a string at most 2048 character(s) long
                     */
                    icon?: string;
                    /**
                     * Format: uuid
                     * @description a Universally Unique Identifier
                     */
                    id: string;
                };
            };
        };
        responses: {
            /** @description WorkspaceAgentLogSource */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceAgentLogSource"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "agentReports.logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PatchWorkspaceAgentLogsRequest"];
            };
        };
        responses: {
            /** @description Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "agentRpc.manifest": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description AgentManifest */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentManifest"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "agentRpc.reinit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A stream of server-sent events (text/event-stream). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "agentRpc.rpc": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Switching Protocols: the connection becomes a WebSocket. */
            101: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "agentStreamEnd.stream": {
        parameters: {
            query?: {
                /** @description a string at most 64 character(s) long */
                replica?: string | "";
            };
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                stream: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Switching Protocols: the connection becomes a WebSocket. */
            101: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "taskAgent.logSnapshot": {
        parameters: {
            query: {
                format: "agentapi";
            };
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                task: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TaskLogSnapshotRequest"];
            };
        };
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "workspaces.getBuild": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                workspacebuild: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description WorkspaceBuild */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceBuild"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "workspaces.cancelBuild": {
        parameters: {
            query?: {
                expect_status?: "pending" | "running" | "";
            };
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                workspacebuild: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "workspaces.buildLogs": {
        parameters: {
            query?: {
                /** @description an integer */
                after?: string | "";
                /** @description an integer */
                before?: string | "";
                follow?: "true" | "false" | "1" | "0" | "";
            };
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                workspacebuild: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Switching Protocols: the connection becomes a WebSocket. */
            101: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProvisionerJobLog"][];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "workspaces.buildParameters": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                workspacebuild: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceBuildParameter"][];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "workspaces.buildResources": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                workspacebuild: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceResource"][];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "workspaces.buildState": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                workspacebuild: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string;
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "workspaces.updateBuildState": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                workspacebuild: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateWorkspaceBuildStateRequest"];
            };
        };
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "workspaces.buildTimings": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                workspacebuild: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description WorkspaceBuildTimings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceBuildTimings"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "workspaceProxies.list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description WorkspaceProxiesResponse */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceProxiesResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "workspaceProxies.create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateWorkspaceProxyRequest"];
            };
        };
        responses: {
            /** @description UpdateWorkspaceProxyResponse */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UpdateWorkspaceProxyResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "workspaceProxies.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a string at most 64 character(s) long */
                workspaceproxy: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description WorkspaceProxy */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceProxy"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "workspaceProxies.delete": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a string at most 64 character(s) long */
                workspaceproxy: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "workspaceProxies.update": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a string at most 64 character(s) long */
                workspaceproxy: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PatchWorkspaceProxy"];
            };
        };
        responses: {
            /** @description UpdateWorkspaceProxyResponse */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UpdateWorkspaceProxyResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "workspaceProxyMe.deregister": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DeregisterWorkspaceProxyRequest"];
            };
        };
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "workspaceProxyMe.register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RegisterWorkspaceProxyRequest"];
            };
        };
        responses: {
            /** @description RegisterWorkspaceProxyResponse */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RegisterWorkspaceProxyResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "workspaces.list": {
        parameters: {
            query?: {
                /** @description a non-negative number */
                limit?: string | "";
                /** @description a non-negative number */
                offset?: string | "";
                /** @description a string at most 4096 character(s) long */
                q?: string | "";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description WorkspacesResponse */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspacesResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "workspaces.get": {
        parameters: {
            query?: {
                include_deleted?: "true" | "false" | "1" | "0" | "";
            };
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                workspace: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Workspace */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workspace"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "workspaces.update": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                workspace: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateWorkspaceRequest"];
            };
        };
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "workspaceSharing.getAcl": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                workspace: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description WorkspaceACL */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceACL"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "workspaceSharing.deleteAcl": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                workspace: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "workspaceSharing.updateAcl": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                workspace: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateWorkspaceACL"];
            };
        };
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "tailnet.agentConnectionWatch": {
        parameters: {
            query?: {
                agent_name?: string;
            };
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                workspace: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Switching Protocols: the connection becomes a WebSocket. */
            101: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "workspaceSchedules.setAutostart": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                workspace: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateWorkspaceAutostartRequest"];
            };
        };
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "workspaceSchedules.setAutomaticUpdates": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                workspace: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateWorkspaceAutomaticUpdatesRequest"];
            };
        };
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "workspaces.listBuilds": {
        parameters: {
            query?: {
                /** @description a Universally Unique Identifier */
                after_id?: string | "";
                /** @description a non-negative number */
                limit?: string | "";
                /** @description a non-negative number */
                offset?: string | "";
                since?: components["schemas"]["DateFromString"] | "";
            };
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                workspace: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceBuild"][];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "workspaces.createBuild": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                workspace: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateWorkspaceBuildRequest"];
            };
        };
        responses: {
            /** @description WorkspaceBuild */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceBuild"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "workspaceSchedules.setDormant": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                workspace: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateWorkspaceDormancy"];
            };
        };
        responses: {
            /** @description Workspace */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workspace"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "workspaceSchedules.extend": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                workspace: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PutExtendWorkspaceRequest"];
            };
        };
        responses: {
            /** @description Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "agents.externalCredentials": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a string at least 1 character(s) long */
                agent: string;
                /** @description a Universally Unique Identifier */
                workspace: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description ExternalAgentCredentials */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExternalAgentCredentials"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "workspaces.favorite": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                workspace: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "workspaces.unfavorite": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                workspace: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "workspaceMoves.list": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                workspace: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceMove"][];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "workspaceMoves.create": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                workspace: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateWorkspaceMoveRequest"];
            };
        };
        responses: {
            /** @description WorkspaceMove */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceMove"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "portShares.list": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                workspace: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description WorkspaceAgentPortShares */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceAgentPortShares"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "portShares.upsert": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                workspace: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpsertWorkspaceAgentPortShareRequest"];
            };
        };
        responses: {
            /** @description WorkspaceAgentPortShare */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceAgentPortShare"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "portShares.delete": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                workspace: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DeleteWorkspaceAgentPortShareRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "workspaceSchedules.resolveAutostart": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                workspace: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description ResolveAutostartResponse */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ResolveAutostartResponse"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "workspaces.workspaceTimings": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                workspace: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description WorkspaceBuildTimings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceBuildTimings"];
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "workspaceSchedules.setTtl": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                workspace: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateWorkspaceTTLRequest"];
            };
        };
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "workspaceSchedules.reportUsage": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                workspace: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PostWorkspaceUsageRequest"] | null;
            };
        };
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "workspaceWatch.watch": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                workspace: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A stream of server-sent events (text/event-stream). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "workspaceWatch.watchWs": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a Universally Unique Identifier */
                workspace: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Switching Protocols: the connection becomes a WebSocket. */
            101: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"] | components["schemas"]["Response"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"] | components["schemas"]["Unauthorized"];
                };
            };
            /** @description Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "agentBinaries.cliBinary": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Architecture (amd64, arm64, armv7) */
                arch: string;
                /** @description Operating system (linux, darwin, windows) */
                os: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            /** @description Success */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "agentBinaries.cliBinaryChecksum": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Architecture (amd64, arm64, armv7) */
                arch: string;
                /** @description Operating system (linux, darwin, windows) */
                os: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain; charset=utf-8": string;
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "agentBinaries.binary": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Architecture (amd64, arm64, armv7) */
                arch: string;
                /** @description Operating system (linux, darwin, windows) */
                os: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            /** @description Success */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
    "agentBinaries.binaryChecksum": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Architecture (amd64, arm64, armv7) */
                arch: string;
                /** @description Operating system (linux, darwin, windows) */
                os: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain; charset=utf-8": string;
                };
            };
            /** @description The request did not match the expected schema */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpApiDecodeError"];
                };
            };
            /** @description Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            /** @description Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
        };
    };
}

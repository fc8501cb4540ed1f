import Hummingbird

/// The headers every cockpit answer carries, errors included: nothing is cached (the page holds a
/// live view and, in its session, the pairing code), nothing is loaded from elsewhere (CSP: the
/// page's own inline style and script only, its own origin for the stream and commands), no other
/// site may frame it (a hidden frame must not take a finger's tap on LAND or START), and no referrer leaks.
struct CockpitHeaders: RouterMiddleware {
    typealias Context = CockpitRequestContext

    static let contentSecurityPolicy = "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
        + "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        response.headers[.cacheControl] = "no-store"
        response.headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.init("X-Frame-Options")!] = "DENY"
        response.headers[.init("Referrer-Policy")!] = "no-referrer"
        return response
    }
}

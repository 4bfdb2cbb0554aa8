vcl 4.1;

# Varnish as the shared cache in front of the Quorvant app servers: nginx terminates TLS and
# proxies to Varnish (its upstream block names Varnish's port), Varnish to the app servers. It
# does what a CDN does with the site's headers: keeps public answers for their s-maxage, serves
# them stale for their stale-while-revalidate while it fetches a new copy, serves them stale
# while no app server answers (stale-if-error), and drops every answer tagged with a surrogate key
# when the site purges that key (Fastly's request shape, so the site's CDN_PURGE_STYLE=fastly
# works unchanged). The back office, form posts, previews and anything personal are passed.
#
# Run: varnishd -a 127.0.0.1:6081 -f /etc/varnish/quorvant.vcl -s malloc,256m, with the
# environment variable CDN_PURGE_TOKEN set to the site's token (docs/operations.md, A CDN in front).
# Lines marked OPERATOR are adapted per host.

import directors;
import std;

probe healthz {
    .url = "/healthz";
    .interval = 2s;
    .timeout = 1s;
    .window = 3;
    .threshold = 2;
}

# One backend per app server, as in nginx's upstream block.
backend app_3000 { .host = "127.0.0.1"; .port = "3000"; .probe = healthz; }  # OPERATOR
backend app_3001 { .host = "127.0.0.1"; .port = "3001"; .probe = healthz; }  # OPERATOR

# Who may purge: the app servers' addresses.
acl purgers {
    "127.0.0.1";  # OPERATOR
    "::1";        # OPERATOR
}

sub vcl_init {
    new apps = directors.round_robin();
    apps.add_backend(app_3000);  # OPERATOR
    apps.add_backend(app_3001);  # OPERATOR
}

sub vcl_recv {
    set req.backend_hint = apps.backend();
    # Only this file marks a request as cacheable (for X-Cache): never trust a client's mark.
    unset req.http.X-Quorvant-Cacheable;

    if (req.method == "POST" && req.url ~ "^/service/[A-Za-z0-9_-]+/purge$") {
        call quorvant_purge;
    }
    if (req.method != "GET" && req.method != "HEAD") {
        # Form posts and everything else that changes something reach an app server as they came.
        return (pass);
    }
    # The back office (its pages and their React Router data requests, /admin.data, /admin/x.data).
    if (req.url ~ "^/admin([/.?]|$)" || req.url ~ "/preview/" || req.url ~ "^/healthz") {
        return (pass);
    }
    if (req.http.Authorization) {
        return (pass);
    }
    # Public answers are the same for everyone: a signed-in editor's cookie or a tracker's must not
    # turn every page into a miss. The back office (passed above) keeps its cookies.
    unset req.http.Cookie;
    set req.http.X-Quorvant-Cacheable = "1";
    return (hash);
}

sub quorvant_purge {
    if (!(client.ip ~ purgers)) {
        return (synth(403, "Forbidden"));
    }
    if (std.getenv("CDN_PURGE_TOKEN") == "" || req.http.Fastly-Key != std.getenv("CDN_PURGE_TOKEN")) {
        return (synth(401, "Unauthorized"));
    }
    if (req.http.Surrogate-Key !~ "^[a-z0-9][a-z0-9:_-]*( [a-z0-9][a-z0-9:_-]*)*$") {
        return (synth(400, "Bad Request"));
    }
    # One ban for the whole batch: every stored answer whose keys include one of these.
    if (std.ban("obj.http.Surrogate-Key ~ (^|[[:space:]])(" + regsuball(req.http.Surrogate-Key, " ", "|") + ")([[:space:]]|$)")) {
        return (synth(200, "Purged"));
    }
    std.log("purge refused: " + std.ban_error());
    return (synth(500, "Purge failed"));
}

sub vcl_backend_fetch {
    unset bereq.http.X-Quorvant-Cacheable;
}

sub vcl_backend_response {
    # Varnish takes s-maxage for the freshness and stale-while-revalidate for the grace: how long a
    # stale copy is served while a new one is fetched in the background. stale-if-error may ask for
    # longer (the site sends it even when its shared copies live one second): the grace is then
    # that long, and since a background fetch that fails keeps the stale copy (below), stored
    # pages answer while no app server does. A copy past its grace is fetched while the visitor waits.
    if (beresp.http.Cache-Control ~ "stale-if-error=[0-9]+") {
        set beresp.grace = std.duration(
            regsub(beresp.http.Cache-Control, "^.*stale-if-error=([0-9]+).*$", "\1s"), beresp.grace);
    }
    # An app server's error must not replace a good stored copy refreshed in the background.
    if (beresp.status >= 500 && bereq.is_bgfetch) {
        return (abandon);
    }
}

sub vcl_backend_error {
    # No app server answered: a background refresh keeps the stored copy.
    if (bereq.is_bgfetch) {
        return (abandon);
    }
}

sub vcl_deliver {
    # The keys are for purging here; visitors and the next cache do not need them.
    unset resp.http.Surrogate-Key;
    if (!req.http.X-Quorvant-Cacheable) {
        set resp.http.X-Cache = "PASS";
    } elsif (obj.hits > 0) {
        set resp.http.X-Cache = "HIT";
    } else {
        set resp.http.X-Cache = "MISS";
    }
}
